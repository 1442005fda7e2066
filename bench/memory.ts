/**
 * Memory of the built CLI as an operator runs it (issue 26: the smallest machines sold have 512 MB).
 *
 *   npx tsx bench/memory.ts [--rounds 2] [--repeat 10] [--jobs 2] [--idle-seconds 5] [--postgres URL]
 *
 * Each round, in this order, every process spawned from `node dist/src/cli/main.js`:
 * 1. `serve` on an empty data directory (the first start: the embedded database made, the sample
 *    articles loaded, the administrator created): peak RSS (VmHWM, worker threads included) up to
 *    `--idle-seconds` after it is ready, time from spawn to ready (its "listening" log line), and
 *    RSS once it has sat idle that long.
 * 2. The same with `--no-samples`.
 * 3. `serve` again on the data directory of 1 (every later start): RSS idle, peak, time to ready.
 * 4. With `--postgres URL` (a database whose public schema it may fill), `serve` with
 *    DATABASE_URL: RSS idle.
 * 5. `convert --jobs N` over the corpus repeated `--repeat` times (bench/corpus-ndjson.ts, as
 *    bench/batch.ts builds it): peak RSS, wall and CPU seconds.
 * A round also times `wikistruct --version` (spawn to exit): the cost of starting node at that
 * moment, the baseline that says how loaded the machine was when the times to ready were taken.
 * Memory figures barely move with load; times do: the CPU seconds a start used until ready are
 * printed beside its time, and the main thread's part of them (a start cannot be ready sooner
 * than that on an idle machine; the rest ran beside it on other threads), and `--cli ../main/dist/src/cli/main.js` runs another build the same
 * way. `--against ../main/dist/src/cli/main.js` compares: each round measures this build (or
 * `--cli`) and that one, in turn (the first of them alternates from round to round), and the end
 * prints each one's medians (the machine is shared: only a comparison in the same run says
 * anything). `--no-convert` measures serve only, `--no-serve` convert only (its row, without the
 * serve starts before it); `--serve-args` adds arguments to every `serve`; `--trace` prints each
 * start's steps (WIKISTRUCT_START_TRACE, src/service/start-trace.ts). `--memory-limit MB` runs every
 * `serve` and `convert` in a cgroup with that memory limit (bench/process-memory.ts MemoryLimit):
 * a machine of that size as the process sees it (`process.constrainedMemory()`, from which convert
 * sizes its workers) and as the kernel enforces it; each row then says whether the kernel had to
 * kill anything. It needs a writable cgroup hierarchy (root; CI's and this machine's have one).
 *
 * Targets: serve idle ≤ 200 MB; first start ≤ 450 MB peak and ≤ 2.5 s to ready; convert at 10×
 * with 2 jobs ≤ 350 MB.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { corpusDir } from '../scripts/conformance/corpus.js';
import { corpusRecords, writeRepeated } from './corpus-ndjson.js';
import { MemoryLimit, systemIdle, watchProcess } from './process-memory.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    repeat: { type: 'string', default: '10' },
    jobs: { type: 'string', default: '2' },
    'idle-seconds': { type: 'string', default: '5' },
    postgres: { type: 'string' },
    /** Another build's CLI (e.g. ../main/dist/src/cli/main.js), to compare against in the same conditions. */
    cli: { type: 'string' },
    'no-convert': { type: 'boolean', default: false },
    /** More arguments for every `serve`, space-separated (`--serve-args='--snapshots-every off'`, with the `=`: what the start's snapshot build costs). */
    'serve-args': { type: 'string', default: '' },
    'no-serve': { type: 'boolean', default: false },
    /** Another build to alternate with, round by round: both get their medians at the end. */
    against: { type: 'string' },
    /** Print each start's steps (WIKISTRUCT_START_TRACE=1). */
    trace: { type: 'boolean', default: false },
    /** Run every serve and convert in a cgroup of this many MB (a small machine on a large one). */
    'memory-limit': { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const repeat = Number(values.repeat);
const jobs = Number(values.jobs);
const idleSeconds = Number(values['idle-seconds']);
const limit = values['memory-limit'] === undefined ? undefined : MemoryLimit.create(Number(values['memory-limit']));
// Removed however the run ends (its processes have exited by then, or the kernel killed them).
process.on('exit', () => limit?.remove());
/** `node args…`, inside the memory limit when there is one. */
const nodeCommand = (args: string[]): [string, string[]] => (limit === undefined ? [process.execPath, args] : limit.wrap(process.execPath, args));
/** What the limit did to a process, for its row: nothing without one. */
const killed = (before: { oomKills: number } | undefined): string => {
  if (limit === undefined || before === undefined) return '';
  const kills = limit.pressure().oomKills - before.oomKills;
  return kills === 0 ? `; within ${limit.mb} MB, nothing killed` : `; ${kills} process(es) killed at the ${limit.mb} MB limit`;
};

const builds = [values.cli ?? join(import.meta.dirname, '..', 'dist', 'src', 'cli', 'main.js'), ...(values.against === undefined ? [] : [values.against])];
for (const cli of builds) {
  if (!existsSync(cli)) {
    console.error(`bench/memory: ${cli} not found (build first: npm run build)`);
    process.exit(1);
  }
}
const work = mkdtempSync(join(tmpdir(), 'wikistruct-bench-memory-'));
const corpus = corpusDir();
let input: string | undefined;
if (values['no-convert']) {
  // Serve only.
} else if (corpus === undefined) {
  console.log('bench/memory: corpus not found ($WIKISTRUCT_CORPUS or ../shared/corpus); convert skipped');
} else {
  input = join(work, `corpus-${repeat}x.ndjson`);
  const records = corpusRecords(corpus);
  await writeRepeated(input, records, repeat);
  console.log(`convert input: ${records.length * repeat} records, ${(statSync(input).size / 1e6).toFixed(0)} MB (${repeat}×)`);
}

interface Served {
  readySeconds: number;
  /** CPU the process used until ready: what the time to ready would be on an idle core, about. */
  readyCpuSeconds: number;
  /** The main thread's part of it: what the time to ready cannot go below on an idle machine. */
  readyMainCpuSeconds: number;
  idleMb: number;
  peakMb: number;
  /** What the memory limit did to it ('' without one). */
  limit: string;
}

/** Starts `serve`, waits for its "listening" line, lets it sit idle, reads its memory, stops it. */
async function serve(cli: string, dataDir: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Served> {
  const started = performance.now();
  const extra = values['serve-args'].split(' ').filter((a) => a !== '');
  const before = limit?.pressure();
  const [command, argv] = nodeCommand([cli, 'serve', '--port', '0', '--data', dataDir, ...args, ...extra]);
  const child = spawn(command, argv, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WIKISTRUCT_ADMIN_PASSWORD: 'bench memory passphrase', LOG_LEVEL: 'info', ...(values.trace ? { WIKISTRUCT_START_TRACE: '1' } : {}), ...env },
  });
  const watch = watchProcess(child.pid!);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let readyCpuSeconds = 0;
  let readyMainCpuSeconds = 0;
  try {
    const readySeconds = await new Promise<number>((ready, fail) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('wikistruct service listening')) {
          watch.rssMb(); // a last sample, now
          readyCpuSeconds = watch.cpuSeconds;
          readyMainCpuSeconds = watch.mainThreadCpuSeconds;
          ready((performance.now() - started) / 1000);
        }
      });
      child.once('exit', (code) => fail(new Error(`serve exited (${code}) before it was ready${killed(before)}: ${stderr}`)));
    });
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const idleMb = watch.rssMb();
    if (values.trace) process.stdout.write(stderr.split('\n').filter((line) => line.startsWith('start-trace')).map((line) => `    ${line}\n`).join(''));
    return { readySeconds, readyCpuSeconds, readyMainCpuSeconds, idleMb, peakMb: watch.peakMb, limit: killed(before) };
  } finally {
    watch.stop();
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

async function convertPeak(cli: string, file: string): Promise<{ peakMb: number; seconds: number; cpuSeconds: number; limit: string }> {
  const started = performance.now();
  const before = limit?.pressure();
  const [command, argv] = nodeCommand([cli, 'convert', file, '-o', join(work, 'out.ndjson'), '--jobs', String(jobs), '--quiet']);
  const child = spawn(command, argv, { stdio: ['ignore', 'ignore', 'inherit'] });
  const watch = watchProcess(child.pid!);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  watch.stop();
  if (code !== 0) throw new Error(`convert exited with ${code ?? signal}${killed(before)}`);
  return { peakMb: watch.peakMb, seconds: (performance.now() - started) / 1000, cpuSeconds: watch.cpuSeconds, limit: killed(before) };
}

async function nodeStartSeconds(cli: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, '--version'], { stdio: 'ignore' });
  await once(child, 'exit');
  return (performance.now() - started) / 1000;
}

const mb = (x: number): string => `${x.toFixed(0)} MB`;
const s = (x: number): string => `${x.toFixed(2)} s`;
const cpu = (x: Served): string => `${s(x.readyCpuSeconds)} CPU, ${s(x.readyMainCpuSeconds)} of it the main thread's`;
/** Each build's measurements, by row, over the rounds (the medians at the end when there are two builds). */
const samples = new Map<string, Map<string, number[]>>(builds.map((cli) => [cli, new Map()]));
const note = (cli: string, row: string, value: number): void => {
  const rows = samples.get(cli)!;
  rows.set(row, [...(rows.get(row) ?? []), value]);
};
const served = (cli: string, row: string, x: Served): void => {
  note(cli, `${row}: ready, s`, x.readySeconds);
  note(cli, `${row}: CPU to ready, s`, x.readyCpuSeconds);
  note(cli, `${row}: main thread CPU to ready, s`, x.readyMainCpuSeconds);
  note(cli, `${row}: peak, MB`, x.peakMb);
  note(cli, `${row}: idle, MB`, x.idleMb);
};
for (let round = 1; round <= rounds; round++) {
  // With two builds, the one measured first alternates: neither always meets the same moment.
  const order = round % 2 === 1 ? builds : [...builds].reverse();
  for (const cli of order) {
    const idle0 = systemIdle();
    const start = await nodeStartSeconds(cli);
    console.log(`round ${round}${builds.length > 1 ? `, ${cli}` : ''}: node start (wikistruct --version) ${s(start)}; load average ${loadavg()[0]!.toFixed(1)}`);
    note(cli, 'load average', loadavg()[0]!);
    if (!values['no-serve']) {
      const data = join(work, `data-${round}`);
      const first = await serve(cli, data, []);
      const bare = join(work, `data-${round}-no-samples`);
      const noSamples = await serve(cli, bare, ['--no-samples']);
      rmSync(bare, { recursive: true, force: true });
      const again = await serve(cli, data, []);
      rmSync(data, { recursive: true, force: true });
      console.log(`  serve, first start, empty data directory: ready in ${s(first.readySeconds)} (${cpu(first)}), peak ${mb(first.peakMb)}, idle ${mb(first.idleMb)} after ${idleSeconds} s${first.limit}`);
      console.log(`  serve --no-samples, first start:          ready in ${s(noSamples.readySeconds)} (${cpu(noSamples)}), peak ${mb(noSamples.peakMb)}, idle ${mb(noSamples.idleMb)}${noSamples.limit}`);
      console.log(`  serve, later start (same data directory): ready in ${s(again.readySeconds)} (${cpu(again)}), peak ${mb(again.peakMb)}, idle ${mb(again.idleMb)}${again.limit}`);
      served(cli, 'first start', first);
      served(cli, 'first start --no-samples', noSamples);
      served(cli, 'later start', again);
    }
    if (values.postgres !== undefined && !values['no-serve']) {
      const pg = await serve(cli, join(work, `data-${round}-pg`), [], { DATABASE_URL: values.postgres });
      console.log(`  serve with DATABASE_URL:                  ready in ${s(pg.readySeconds)} (${cpu(pg)}), peak ${mb(pg.peakMb)}, idle ${mb(pg.idleMb)}${pg.limit}`);
      served(cli, 'DATABASE_URL', pg);
    }
    if (input !== undefined) {
      const c = await convertPeak(cli, input);
      console.log(`  convert --jobs ${jobs}, ${repeat}× corpus: peak ${mb(c.peakMb)}; ${s(c.seconds)} wall, ${s(c.cpuSeconds)} CPU${c.limit}`);
      note(cli, 'convert: peak, MB', c.peakMb);
      note(cli, 'convert: CPU, s', c.cpuSeconds);
      note(cli, 'convert: wall, s', c.seconds);
    }
    const idle1 = systemIdle();
    console.log(`  machine idle during the round: ${(((idle1.idle - idle0.idle) / Math.max(1, idle1.total - idle0.total)) * 100).toFixed(0)}%`);
  }
}
if (builds.length > 1) {
  const median = (xs: readonly number[]): number => {
    const sorted = [...xs].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  console.log(`medians over ${rounds} rounds (range in brackets):`);
  const [a, b] = builds as [string, string];
  for (const row of samples.get(a)!.keys()) {
    const show = (cli: string): string => {
      const xs = samples.get(cli)!.get(row) ?? [];
      return `${median(xs).toFixed(2)} [${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}]`;
    };
    console.log(`  ${row.padEnd(44)} ${show(a).padEnd(24)} against ${show(b)}`);
  }
  console.log(`  (this build: ${a}; against: ${b})`);
}
console.log('targets: serve idle ≤ 200 MB; first start ≤ 450 MB peak, ≤ 2.5 s to ready; convert 10× --jobs 2 ≤ 350 MB peak');
rmSync(work, { recursive: true, force: true });
