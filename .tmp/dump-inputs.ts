import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir } from '../scripts/conformance/corpus.js';
import { corpusSiteinfo, wikitextCases, wikitextCorpusDir } from '../scripts/conformance/wikitext-corpus.js';
import { wikitextRecordOf } from '../src/index.js';
const env: unknown[] = [];
const folder = corpusDir()!;
for (const file of readdirSync(join(folder, 'articles')).sort()) {
  if (!file.endsWith('.json')) continue;
  const r = wikitextRecordOf(JSON.parse(readFileSync(join(folder, 'articles', file), 'utf8')));
  if (r) env.push({ text: r.wikitext, meta: r.meta, options: {} });
}
const wt: unknown[] = [];
const wf = wikitextCorpusDir()!;
for (const c of wikitextCases(wf)) { const info = corpusSiteinfo(wf, c.project); const site = info?.api ?? info?.dump; wt.push({ text: readFileSync(c.path, 'utf8'), meta: { name: c.title, project: c.project, language: c.language }, options: site ? { site } : {} }); }
writeFileSync('/tmp/prof/envelopes.json', JSON.stringify(env));
writeFileSync('/tmp/prof/wikitext.json', JSON.stringify(wt));
