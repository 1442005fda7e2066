/**
 * `npm run bench`: engine throughput over the real-article corpus, compared in the same run with
 * htmlparser2's `parseDocument` over the same inputs (the DOM that any htmlparser2-based engine
 * would build before doing any work of its own).
 *
 *   npm run bench [-- --rounds 5]
 *
 * Prints MB/s of both, the time ratio engine / parseDocument (the production parser runs at about
 * 2.7×; ours builds its own lighter tree from htmlparser2's tokenizer, target ≤ 0.6×, issue 26) and the
 * process's peak RSS; and, as floors, htmlparser2's `Parser` with no handler and its bare
 * `Tokenizer` over the same HTML (what a design built on that tokenizer cannot go below). Rounds
 * alternate between them so that drift on a shared machine hits all alike. Each round is timed twice: wall clock, and CPU time of the process (user + system,
 * GC threads included), which a busy machine disturbs far less; medians are shown with the range
 * over rounds.
 */
import { benchCorpus, benchInputs, htmlBytes, positiveArg, RUNS } from './engine-inputs.js';

const dir = benchCorpus();

const rounds = positiveArg('--rounds', 5);
// Inputs as `parse` takes them; the baseline gets the very HTML the engine parses.
const inputs = benchInputs(dir);
const mb = htmlBytes(inputs) / 1e6;

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

const baseline = (): void => RUNS.parseDocument(inputs);
const engine = (): void => RUNS.engine(inputs);
const parser = (): void => RUNS.parser(inputs);
const tokenizer = (): void => RUNS.tokenizer(inputs);

// Warm-up: JIT every path before timing.
baseline();
engine();
parser();
tokenizer();

const base: Round[] = [];
const ours: Round[] = [];
const parserOnly: Round[] = [];
const tokenizerOnly: Round[] = [];
for (let r = 0; r < rounds; r++) {
  base.push(time(baseline));
  ours.push(time(engine));
  parserOnly.push(time(parser));
  tokenizerOnly.push(time(tokenizer));
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
  console.log(`  ratio engine/parseDocument ${spread(ratios, 2)}×  (target ≤ 0.6×; production parser ≈ 2.7×)`);
  for (const [label, floor] of [['Parser, no handler', parserOnly], ['Tokenizer alone', tokenizerOnly]] as const) {
    const f = floor.map((r) => r[clock]);
    console.log(`  floor: ${label.padEnd(19)} ${spread(f, 3)} s  ÷ parseDocument ${spread(f.map((t, i) => t / b[i]!), 2)}×`);
  }
}
console.log(`peak RSS                   ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
