/**
 * `npm run bench`: engine throughput over the real-article corpus, compared in the same run with
 * htmlparser2's `parseDocument` over the same inputs (the DOM that any htmlparser2-based engine
 * would build before doing any work of its own).
 *
 *   npm run bench [-- --rounds 5]
 *
 * Prints MB/s of both, the time ratio engine / parseDocument (the production parser runs at about
 * 2.7×; ours builds its own lighter tree from htmlparser2's tokenizer, target ≤ 0.9×) and the
 * process's peak RSS. Rounds alternate between the two so that drift on a shared machine hits
 * both alike. Each round is timed twice: wall clock, and CPU time of the process (user + system,
 * GC threads included), which a busy machine disturbs far less; medians are shown with the range
 * over rounds.
 */
import { readFileSync } from 'node:fs';
import { parseDocument } from 'htmlparser2';
import { parse } from '../src/index.js';
import { corpusCases, corpusDir } from '../scripts/conformance/corpus.js';

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
  // An envelope's HTML is its article_body.html (src/engine/input.ts reads it so).
  return { input, html: typeof input === 'string' ? input : (input['article_body'] as { html: string }).html };
});
const bytes = inputs.reduce((n, i) => n + Buffer.byteLength(i.html, 'utf8'), 0);
const mb = bytes / 1e6;

interface Round {
  wall: number;
  cpu: number;
}

function time(fn: () => void): Round {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  fn();
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1e6 };
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

const base: Round[] = [];
const ours: Round[] = [];
for (let r = 0; r < rounds; r++) {
  base.push(time(baseline));
  ours.push(time(engine));
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
/** "median (min–max)" of `xs`, each with `digits` decimals. */
function spread(xs: number[], digits: number): string {
  return `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
}

console.log(`corpus: ${inputs.length} inputs, ${mb.toFixed(1)} MB of HTML; ${rounds} rounds; median (range over rounds)`);
for (const clock of ['wall', 'cpu'] as const) {
  const b = base.map((r) => r[clock]);
  const e = ours.map((r) => r[clock]);
  const ratios = b.map((t, i) => e[i]! / t);
  console.log(`${clock === 'wall' ? 'wall clock' : 'CPU time'}:`);
  console.log(`  htmlparser2 parseDocument  ${spread(b, 3)} s  ${(mb / median(b)).toFixed(1)} MB/s`);
  console.log(`  wikistruct parse           ${spread(e, 3)} s  ${(mb / median(e)).toFixed(1)} MB/s  (${(inputs.length / median(e)).toFixed(0)} articles/s)`);
  console.log(`  ratio engine/parseDocument ${spread(ratios, 2)}×  (target ≤ 0.9×; production parser ≈ 2.7×)`);
}
console.log(`peak RSS                   ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
