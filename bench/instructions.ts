/**
 * `npm run bench:instructions`: the engine's cost on the corpus in executed instructions, as a
 * ratio to htmlparser2's `parseDocument` over the same HTML, counted by valgrind's callgrind.
 * Instruction counts barely move when other processes load the machine, where wall and CPU time
 * swing by tens of percent (bench/engine.ts), so a change of a few percent shows.
 *
 *   npm run bench:instructions [-- --rounds 1 --every 1 --warmup 1 --no-floors --keep DIR]
 *
 * The script re-runs itself under `valgrind --tool=callgrind --dump-before=uv_getrusage`: inside,
 * it loads the corpus, warms every run up, then calls `process.cpuUsage()` (libuv's
 * `uv_getrusage`) between runs, so that callgrind writes one profile per run with the
 * instructions since the previous mark — JIT compilation and GC threads included, as they are part
 * of the cost. Each round runs `parseDocument`, the engine, htmlparser2's `Parser` with no handler
 * and its bare `Tokenizer` (the floors of a design built on that tokenizer), in that order.
 * `--every N` takes every N-th input only and `--no-floors` skips the two floors (callgrind runs
 * some 50× slower than node, far slower on a loaded machine).
 * `--keep DIR` keeps the profiles for callgrind_annotate (JIT code shows as unnamed addresses).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchCorpus, benchInputs, htmlBytes, positiveArg, RUNS } from './engine-inputs.js';
import type { RunName } from './engine-inputs.js';

const CHILD = 'WIKISTRUCT_INSTRUCTIONS_CHILD';

const dir = benchCorpus();
const rounds = Math.ceil(positiveArg('--rounds', 1));
const every = Math.ceil(positiveArg('--every', 1));
const warmup = Math.ceil(positiveArg('--warmup', 1));
const ORDER: readonly RunName[] = process.argv.includes('--no-floors') ? ['parseDocument', 'engine'] : ['parseDocument', 'engine', 'parser', 'tokenizer'];

if (process.env[CHILD] === '1') measure();
else report();

/** Inside callgrind: one mark (and so one profile) after each run. */
function measure(): void {
  const inputs = benchInputs(dir, every);
  for (let w = 0; w < warmup; w++) for (const name of ORDER) RUNS[name](inputs);
  const mark = (): unknown => process.cpuUsage();
  mark();
  for (let r = 0; r < rounds; r++) {
    for (const name of ORDER) {
      RUNS[name](inputs);
      mark();
    }
  }
}

function report(): void {
  const keepAt = process.argv.indexOf('--keep');
  const out = keepAt >= 0 && process.argv[keepAt + 1] !== undefined ? process.argv[keepAt + 1]! : mkdtempSync(join(tmpdir(), 'wikistruct-callgrind-'));
  const inputs = benchInputs(dir, every);
  const child = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--dump-before=uv_getrusage',
      `--callgrind-out-file=${join(out, 'callgrind.out')}`,
      process.execPath,
      ...process.execArgv,
      ...process.argv.slice(1),
    ],
    { env: { ...process.env, [CHILD]: '1' }, stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' },
  );
  if (child.error !== undefined) {
    console.error(`bench:instructions needs valgrind (callgrind) on the PATH: ${child.error.message}`);
    process.exit(1);
  }
  if (child.status !== 0) {
    console.error(child.stderr.split('\n').slice(-20).join('\n'));
    console.error(`the run under callgrind failed (exit ${child.status ?? child.signal})`);
    process.exit(1);
  }
  // callgrind.out.1 is the set-up up to the first mark, then one file per run in ORDER.
  const totals = new Map<number, number>();
  for (const file of readdirSync(out)) {
    const n = /^callgrind\.out\.(\d+)$/.exec(file)?.[1];
    if (n === undefined) continue;
    const total = /^totals: (\d+)/m.exec(readFileSync(join(out, file), 'utf8'))?.[1];
    if (total !== undefined) totals.set(Number(n), Number(total));
  }
  const expected = 1 + rounds * ORDER.length;
  if (totals.size < expected) {
    console.error(`expected ${expected} callgrind profiles in ${out}, found ${totals.size}`);
    process.exit(1);
  }
  const sums = new Map<RunName, number[]>(ORDER.map((name) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    ORDER.forEach((name, k) => sums.get(name)!.push(totals.get(2 + r * ORDER.length + k)!));
  }
  if (keepAt < 0) rmSync(out, { recursive: true, force: true });

  const base = sums.get('parseDocument')!;
  const mb = htmlBytes(inputs) / 1e6;
  console.log(`corpus: ${inputs.length} inputs${every > 1 ? ` (every ${every}th)` : ''}, ${mb.toFixed(1)} MB of HTML; ${rounds} round(s) after ${warmup} warm-up`);
  console.log('instructions per round (and ÷ parseDocument, per round):');
  for (const name of ORDER) {
    const counts = sums.get(name)!;
    const ratios = counts.map((c, r) => (c / base[r]!).toFixed(3)).join(', ');
    const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
    console.log(`  ${name.padEnd(14)} ${(mean / 1e9).toFixed(3)} G  ${(mean / (mb * 1e6)).toFixed(1)} per byte  ${ratios}×`);
  }
  console.log('target: engine ≤ 0.6× parseDocument; floors: Parser with no handler, bare Tokenizer');
}
