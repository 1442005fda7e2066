/**
 * Our wikitext syntax tree against wikiparser-node's on the shared corpus: every article's first
 * differences, then how many articles agree, and both parsers' time (one process, alternating).
 *
 *   npx tsx test/support/compare-wikitext-trees.ts [--set envelopes|wikitext|both] [--limit 5] [--only NAME] [--stage N]
 *   npx tsx test/support/compare-wikitext-trees.ts --text 'a [[b|c]] {{d|e=f}}' [--language de] [--stage N] [--dump]
 *
 * `--text` compares one snippet (`\n` written as two characters is a line break) on a wiki of
 * `--language` (en by default); `--dump` prints both trees. *
 * `--stage N` stops both parsers after stage N-1 (wikiparser-node's `maxStage`), to check the
 * early stages alone.
 */
import { parseArgs } from 'node:util';
import Parser from 'wikiparser-node';
import { parserConfig } from '../../src/engine/wikitext/tree.js';
import { parseWikitextTree } from '../../src/engine/wikitext/syntax/parse.js';
import { profileForPage } from '../../src/engine/wiki/profile.js';
import { compareTrees, dumpTree, wikitextCorpusCases } from './wikitext-trees.js';
import type { WikitextCorpusCase } from './wikitext-trees.js';

const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'both' },
    limit: { type: 'string', default: '5' },
    only: { type: 'string' },
    stage: { type: 'string' },
    text: { type: 'string' },
    language: { type: 'string', default: 'en' },
    dump: { type: 'boolean', default: false },
  },
});

const cases: WikitextCorpusCase[] =
  values.text !== undefined
    ? [{ name: 'text', text: values.text.replace(/\\n/g, '\n'), site: undefined, project: `${values.language}wiki`, language: values.language }]
    : wikitextCorpusCases({ envelopes: values.set !== 'wikitext', wikitext: values.set !== 'envelopes' });

const limit = Number(values.limit);
const stage = values.stage === undefined ? undefined : Number(values.stage);
let same = 0;
let ourTime = 0;
let theirTime = 0;
const selected = cases.filter((c) => values.only === undefined || c.name.includes(values.only));
for (const c of selected) {
  const config = parserConfig(profileForPage(c.site, c.project, c.language));
  const viewOnly = Parser.viewOnly;
  Parser.viewOnly = true;
  let t = process.hrtime.bigint();
  const theirs = Parser.parse(c.text, false, stage, config);
  theirTime += Number(process.hrtime.bigint() - t) / 1e6;
  Parser.viewOnly = viewOnly;
  t = process.hrtime.bigint();
  let ours;
  try {
    ours = parseWikitextTree(c.text, config, stage);
  } catch (e) {
    console.log(`✗ ${c.name}: our parse throws: ${(e as Error).stack?.split('\n').slice(0, 4).join(' | ')}`);
    continue;
  }
  ourTime += Number(process.hrtime.bigint() - t) / 1e6;
  if (values.dump) {
    console.log(`ours:\n${dumpTree(ours)}\ntheirs:\n${dumpTree(theirs as never)}`);
  }
  const diffs = compareTrees(ours, theirs, limit);
  if (diffs.length === 0) {
    same++;
    continue;
  }
  console.log(`✗ ${c.name}`);
  for (const d of diffs) console.log(`    ${d.path}  ${d.what}: ours ${d.ours}  theirs ${d.theirs}`);
}
console.log(`\n${same}/${selected.length} trees identical; parse time ours ${ourTime.toFixed(0)} ms, wikiparser-node ${theirTime.toFixed(0)} ms (one pass, same process)`);
