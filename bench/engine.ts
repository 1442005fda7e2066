/**
 * `npm run bench`: engine throughput over the real-article corpus, compared in the same run with
 * htmlparser2's `parseDocument` over the same inputs (the floor any DOM-based engine pays).
 *
 *   npm run bench [-- --rounds 5]
 *
 * Prints MB/s of both, the time ratio engine / parseDocument (the production parser runs at about
 * 2.7×; our target is 2.0× or better) and the process's peak RSS. Rounds alternate between the two
 * so that drift on a shared machine hits both alike; the median round counts.
 */
import { readFileSync } from 'node:fs';
import { parseDocument } from 'htmlparser2';
import { parse } from '../src/index.js';
import { corpusCases, corpusDir } from '../scripts/conformance/corpus.js';
import { readInput } from '../src/engine/input.js';

function argValue(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const raw = at >= 0 ? process.argv[at + 1] : undefined;
  const n = raw === undefined ? Number.NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

const dir = corpusDir();
if (dir === undefined) {
  console.log('bench: corpus not found (../shared/corpus or $WIKISTRUCT_CORPUS); nothing to measure');
  process.exit(0);
}

const rounds = argValue('--rounds', 5);
// Inputs as `parse` takes them; the baseline gets the very HTML the engine parses.
const inputs = corpusCases(dir).map((c) => {
  const text = readFileSync(c.path, 'utf8');
  const input: string | Record<string, unknown> = c.kind === 'html' ? text : (JSON.parse(text) as Record<string, unknown>);
  return { input, html: readInput(input, Number.MAX_SAFE_INTEGER).html };
});
const bytes = inputs.reduce((n, i) => n + Buffer.byteLength(i.html, 'utf8'), 0);
const mb = bytes / 1e6;

function time(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const baseline = (): void => {
  for (const i of inputs) parseDocument(i.html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
};
const engine = (): void => {
  for (const i of inputs) parse(i.input);
};

// Warm-up: JIT both paths before timing.
baseline();
engine();

const base: number[] = [];
const ours: number[] = [];
for (let r = 0; r < rounds; r++) {
  base.push(time(baseline));
  ours.push(time(engine));
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const b = median(base);
const e = median(ours);
const ratios = base.map((t, i) => ours[i]! / t);

console.log(`corpus: ${inputs.length} inputs, ${mb.toFixed(1)} MB of HTML; ${rounds} rounds, median shown`);
console.log(`htmlparser2 parseDocument  ${b.toFixed(3)} s  ${(mb / b).toFixed(1)} MB/s`);
console.log(`wikistruct parse           ${e.toFixed(3)} s  ${(mb / e).toFixed(1)} MB/s  (${(inputs.length / e).toFixed(0)} articles/s)`);
console.log(`ratio engine/parseDocument ${(e / b).toFixed(2)}×  (per-round ${ratios.map((x) => x.toFixed(2)).join(' ')}; production parser ≈ 2.7×, target ≤ 2.0×)`);
console.log(`peak RSS                   ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
