/**
 * The links, external links, magic links and conversion stages (syntax/stages/links.ts …) on
 * lines of the shared corpus's wikitext articles that use no construct of the stages others write
 * (templates, tags, comments, HTML, tables, headings, `__words__`, `----`): every such line with
 * a link is compared with wikiparser-node's tree, after all stages, or only up to the links stage
 * when it holds quotes, or up to the magic links stage when it is a list item.
 *
 *   npx tsx test/support/compare-link-lines.ts [--limit 20]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Parser from 'wikiparser-node';
import { wikitextCorpusDir } from '../../scripts/conformance/wikitext-corpus.js';
import { parserConfig } from '../../src/engine/wikitext/tree.js';
import { parseWikitextTree } from '../../src/engine/wikitext/syntax/parse.js';
import { wikiProfile } from '../../src/engine/wiki/profile.js';
import { compareTrees } from './wikitext-trees.js';
import type { AstNodes } from '../../src/engine/wikitext/syntax/token.js';

const { values } = parseArgs({ options: { limit: { type: 'string', default: '20' } } });
const folder = wikitextCorpusDir();
if (folder === undefined) throw new Error('no wikitext corpus');
const OTHERS = /\{\{|\}\}|\{\||<|>|__|^\s*[=|!]|^-{4}|^ /u;
const LIST = /^[*#:;]/u;
const OURS = /\[\[|\[(?:https?:)?\/\/|https?:\/\/|ISBN|RFC|PMID|-\{/u;
let lines = 0;
let same = 0;
let files = 0;
let shown = 0;
/** How many compared lines hold each kind of token of these stages. */
const kinds = new Map<string, number>();
const KINDS = new Set(['link', 'category', 'file', 'image-parameter', 'ext-link', 'free-ext-link', 'magic-link', 'converter']);
function typesIn(n: AstNodes, into: Set<string>): Set<string> {
  if (KINDS.has(n.type)) into.add(n.type);
  for (const c of n.childNodes) typesIn(c, into);
  return into;
}
let ourTime = 0;
let theirTime = 0;
const limit = Number(values.limit);
for (const file of readdirSync(folder).sort()) {
  if (!file.endsWith('.wikitext')) continue;
  const project = file.slice(0, file.indexOf('__'));
  const language = project.replace(/wiki$/u, '');
  const config = parserConfig(wikiProfile({ project, language }));
  const text = readFileSync(join(folder, file), 'utf8');
  let counted = false;
  for (const line of text.split('\n')) {
    if (!OURS.test(line) || OTHERS.test(line)) continue;
    if (config.variants.length === 0 && line.includes('-{')) continue;
    counted = true;
    lines++;
    // Stop before the stage of quotes (6) or lists (9) where the line needs it.
    const stage = line.includes("''") ? 6 : LIST.test(line) ? 9 : undefined;
    const viewOnly = Parser.viewOnly;
    Parser.viewOnly = true;
    let t = process.hrtime.bigint();
    const theirs = Parser.parse(line, false, stage, config);
    theirTime += Number(process.hrtime.bigint() - t) / 1e6;
    Parser.viewOnly = viewOnly;
    t = process.hrtime.bigint();
    const ours = parseWikitextTree(line, config, stage);
    ourTime += Number(process.hrtime.bigint() - t) / 1e6;
    for (const k of typesIn(ours, new Set())) kinds.set(k, (kinds.get(k) ?? 0) + 1);
    const diffs = compareTrees(ours, theirs, 3);
    if (diffs.length === 0) {
      same++;
      continue;
    }
    if (shown++ < limit) {
      console.log(`✗ ${file}: ${JSON.stringify(line.slice(0, 160))}`);
      for (const d of diffs) console.log(`    ${d.path}  ${d.what}: ours ${d.ours}  theirs ${d.theirs}`);
    }
  }
  if (counted) files++;
}
console.log(`\nlines holding: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}`);
console.log(`${same}/${lines} lines identical (${files} articles); ours ${ourTime.toFixed(0)} ms, wikiparser-node ${theirTime.toFixed(0)} ms`);
