/**
 * Writes what parseWikitext hands wikiparser-node — each page's wikitext and tree.ts's parser
 * configuration for its wiki — to a JSON file, so that bench/wikiparser-parse.mjs can time and
 * profile `Parser.parse` alone under plain `node` (no tsx loader hook in the profile):
 *
 *   npx tsx bench/wikiparser-inputs.ts /tmp/wikiparser-inputs.json
 *
 * Sets: `envelopes` (the corpus envelopes' article_body.wikitext) and `wikitext` (the 78
 * wikitext-corpus articles with their API siteinfo), the same inputs as bench/wikitext.ts.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Parser from 'wikiparser-node';
import { corpusDir } from '../scripts/conformance/corpus.js';
import { corpusSiteinfo, wikitextCases, wikitextCorpusDir } from '../scripts/conformance/wikitext-corpus.js';
import { parseWikitext, wikitextRecordOf } from '../src/index.js';

const out = process.argv[2] ?? '/tmp/wikiparser-inputs.json';
const seen: unknown[] = [];
const configs: unknown[] = []; // shallow copies taken before the library caches its regexes and sets in them
let calls: { text: string; config: number }[] = [];
const parse = Parser.parse.bind(Parser);
(Parser as unknown as { parse: unknown }).parse = (text: string, include: boolean, stage: number | undefined, config: unknown) => {
  let i = seen.indexOf(config);
  if (i < 0) {
    i = seen.push(config) - 1;
    configs.push({ ...(config as object) });
  }
  calls.push({ text, config: i });
  return parse(text, include, stage, config as never);
};

const corpus = corpusDir();
if (corpus === undefined) throw new Error('corpus not found');
const sets: Record<string, { text: string; config: number }[]> = {};
for (const file of readdirSync(join(corpus, 'articles')).sort()) {
  if (!file.endsWith('.json')) continue;
  const record = wikitextRecordOf(JSON.parse(readFileSync(join(corpus, 'articles', file), 'utf8')) as unknown);
  if (record !== undefined) parseWikitext(record.wikitext, record.meta, {});
}
sets.envelopes = calls;
calls = [];
const folder = wikitextCorpusDir();
if (folder !== undefined) {
  for (const c of wikitextCases(folder)) {
    const info = corpusSiteinfo(folder, c.project);
    const site = info?.api ?? info?.dump;
    parseWikitext(readFileSync(c.path, 'utf8'), { name: c.title, project: c.project, language: c.language }, site === undefined ? {} : { site });
  }
}
sets.wikitext = calls;
writeFileSync(out, JSON.stringify({ configs, sets }));
console.log(`${out}: ${sets.envelopes.length} + ${sets.wikitext.length} parses, ${configs.length} configurations`);
