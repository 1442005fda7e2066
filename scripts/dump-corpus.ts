/**
 * Writes the engine's output for every corpus input, one pretty JSON file each, so that a change
 * can be diffed against the output before it (`diff -r before after`): every HTML file and every
 * envelope through `parse`, every envelope's wikitext through `parseWikitext`, and every article
 * of the wikitext corpus (`wikitext/`, 78 articles in 33 languages) through `parseWikitext` with
 * the meta the wikitext conformance report gives it (written to `wikitext-corpus/`).
 *
 *   npx tsx scripts/dump-corpus.ts OUT_DIR [CORPUS_DIR]
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseWikitext } from '../src/index.js';
import type { Envelope } from '../src/index.js';
import { corpusCases, loadInput } from './conformance/corpus.js';
import { wikitextCases } from './conformance/wikitext-corpus.js';

const [out, corpusArg] = process.argv.slice(2);
if (out === undefined) {
  console.error('usage: tsx scripts/dump-corpus.ts OUT_DIR [CORPUS_DIR]');
  process.exit(2);
}
const corpus = corpusArg ?? new URL('../../shared/corpus/', import.meta.url).pathname;
if (!existsSync(corpus)) {
  console.error(`no corpus at ${corpus}`);
  process.exit(2);
}
for (const dir of ['html', 'envelope', 'wikitext', 'wikitext-corpus']) mkdirSync(join(out, dir), { recursive: true });
const write = (dir: string, name: string, value: unknown): void =>
  writeFileSync(join(out, dir, `${name}.json`), `${JSON.stringify(value, null, 1)}\n`);

for (const c of corpusCases(corpus)) {
  const input = loadInput(c);
  if (c.kind === 'html') {
    write('html', c.name, parse(input as string));
    continue;
  }
  // A corpus envelope carries the wikitext beside the HTML (one revision, both bodies).
  const envelope = input as Envelope & { article_body: { wikitext: string } };
  write('envelope', c.name, parse(envelope));
  // The meta by hand, not wikitextRecordOf: these fields only, so the dumps stay comparable.
  const project = envelope.is_part_of?.identifier;
  write('wikitext', c.name, parseWikitext(envelope.article_body.wikitext, {
    name: envelope.name,
    ...(project === undefined ? {} : { project }),
    ...(envelope.in_language?.identifier === undefined ? {} : { language: envelope.in_language.identifier }),
  }));
}
const wikitextFolder = join(corpus, 'wikitext');
if (existsSync(join(wikitextFolder, 'manifest.json'))) {
  for (const c of wikitextCases(wikitextFolder)) {
    const source = readFileSync(c.path, 'utf8');
    write('wikitext-corpus', c.name, parseWikitext(source, { name: c.title, project: c.project, language: c.language }));
  }
}
console.log(`wrote ${out}`);
