/**
 * `npx tsx bench/fields.ts`: the cost of `fields` on the corpus's largest Article, our selection
 * (scan the top level, parse only the members narrowed further) against the obvious baseline in
 * the same run (JSON.parse the whole Article, pick, JSON.stringify).
 *
 *   npx tsx bench/fields.ts [--rounds 200]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '../src/index.js';
import { compileSelection, selectFields, selectValue } from '../src/service/content/fields.js';
import { corpusDir } from '../scripts/conformance/corpus.js';

const dir = corpusDir();
if (dir === undefined) {
  console.log('bench: corpus not found (../shared/corpus or $WIKISTRUCT_CORPUS); nothing to measure');
  process.exit(0);
}
const at = process.argv.indexOf('--rounds');
const rounds = at >= 0 ? Number(process.argv[at + 1]) : 200;

const html = join(dir, 'html');
const largest = readdirSync(html)
  .filter((f) => f.endsWith('.html'))
  .map((f) => ({ f, size: statSync(join(html, f)).size }))
  .sort((a, b) => b.size - a.size)[0]!.f;
const json = JSON.stringify(parse(readFileSync(join(html, largest), 'utf8')));

const cases: string[][] = [['name'], ['name', 'version.identifier', 'is_part_of.identifier'], ['infoboxes.name'], ['abstract', 'infoboxes'], ['sections'], ['references.metadata.title']];

/** Median milliseconds of one call, over alternating rounds. */
function median(fn: () => void): number {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

console.log(`article: ${largest} → Article ${(json.length / 1e6).toFixed(2)} MB JSON; median of ${rounds} calls each`);
console.log('fields                                               ours ms   parse+pick+stringify ms');
for (const fields of cases) {
  const selection = compileSelection(fields);
  const ours = (): string => selectFields(json, selection);
  const baseline = (): string => JSON.stringify(selectValue(JSON.parse(json), selection));
  if (JSON.stringify(JSON.parse(ours())) !== baseline()) throw new Error(`results differ for ${fields.join(',')}`);
  ours(); // warm both paths before timing
  baseline();
  const a = median(ours);
  const b = median(baseline);
  console.log(`${JSON.stringify(fields).padEnd(52)} ${a.toFixed(3).padStart(8)} ${b.toFixed(3).padStart(24)}`);
}
