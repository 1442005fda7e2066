/**
 * Batch throughput and memory of `wikistruct convert`, against the single-threaded engine in the
 * same run (machines are shared; only same-run ratios mean anything).
 *
 *   npx tsx bench/batch.ts [--repeat 10] [--jobs 2]
 *
 * 1. Builds an NDJSON of the corpus (envelopes as delivered, each .html wrapped as an envelope),
 *    once (1×) and repeated (default 10×), in a temporary directory.
 * 2. Baseline: converts the 1× records in this process on one thread, through the same function
 *    the workers run (decode, parse, serialize).
 * 3. Runs the built CLI (`node dist/src/cli/main.js convert`) with `--jobs` workers on the 1× and
 *    the 10× file, sampling the process's peak RSS (VmHWM) from /proc.
 * Prints records/s, MB/s, the scaling ratio (pool ÷ baseline records/s) and peak RSS for both
 * sizes. Targets: ≥ 1.7× on 2 cores; peak RSS < 500 MB and not growing with the input.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { corpusDir } from '../scripts/conformance/corpus.js';
import { convertPayload } from '../src/batch/convert-record.js';
import { loadEngines } from '../src/batch/engines.js';

const { values } = parseArgs({ options: { repeat: { type: 'string', default: '10' }, jobs: { type: 'string', default: '2' } } });
const repeat = Number(values.repeat);
const jobs = Number(values.jobs);

const corpus = corpusDir();
if (corpus === undefined) {
  console.log('bench/batch: corpus not found ($WIKISTRUCT_CORPUS or ../shared/corpus); skipped');
  process.exit(0);
}

const cli = join(import.meta.dirname, '..', 'dist', 'src', 'cli', 'main.js');
if (!existsSync(cli)) {
  console.error('bench/batch: build first (npm run build)');
  process.exit(1);
}

// 1. The records, one envelope per line.
const lines: string[] = [];
for (const file of readdirSync(join(corpus, 'articles')).sort()) {
  if (file.endsWith('.json')) lines.push(JSON.stringify(JSON.parse(readFileSync(join(corpus, 'articles', file), 'utf8'))));
}
for (const file of readdirSync(join(corpus, 'html')).sort()) {
  if (!file.endsWith('.html')) continue;
  const html = readFileSync(join(corpus, 'html', file), 'utf8');
  lines.push(JSON.stringify({ name: basename(file, '.html').replace(/_/g, ' '), article_body: { html } }));
}
const work = mkdtempSync(join(tmpdir(), 'wikistruct-bench-batch-'));
const oneX = join(work, 'corpus-1x.ndjson');
const manyX = join(work, `corpus-${repeat}x.ndjson`);
await writeRepeated(oneX, lines, 1);
await writeRepeated(manyX, lines, repeat);
const mb = (path: string): number => statSync(path).size / 1e6;
console.log(`input: ${lines.length} records, ${mb(oneX).toFixed(1)} MB (1×); ${lines.length * repeat} records, ${mb(manyX).toFixed(1)} MB (${repeat}×)`);

// 2. Baseline: one thread, in process, same per-record function as the workers.
const engines = await loadEngines();
const encoder = new TextEncoder();
const payloads = lines.map((l) => encoder.encode(l));
for (const bytes of payloads.slice(0, 5)) convertPayload({ kind: 'json', bytes: bytes.slice() }, engines, { allPages: false });
const t0 = performance.now();
let failed = 0;
for (const bytes of payloads) {
  if (convertPayload({ kind: 'json', bytes }, engines, { allPages: false }).status !== 'ok') failed += 1;
}
const baseSeconds = (performance.now() - t0) / 1000;
const baseRate = payloads.length / baseSeconds;
const baseMbps = mb(oneX) / baseSeconds;
console.log(`baseline, 1 thread in-process: ${payloads.length} records in ${baseSeconds.toFixed(2)} s = ${baseRate.toFixed(1)} records/s, ${baseMbps.toFixed(1)} MB/s${failed > 0 ? ` (${failed} failed)` : ''}`);

// 3. The CLI with the worker pool.
const small = await runCli(oneX, join(work, 'out-1x.ndjson'));
const large = await runCli(manyX, join(work, `out-${repeat}x.ndjson`));
for (const [label, r, records, size] of [['1×', small, lines.length, mb(oneX)], [`${repeat}×`, large, lines.length * repeat, mb(manyX)]] as const) {
  console.log(
    `wikistruct convert --jobs ${jobs}, ${label}: ${records} records in ${r.seconds.toFixed(2)} s (wall, process start included) = ` +
      `${(records / r.seconds).toFixed(1)} records/s, ${(size / r.seconds).toFixed(1)} MB/s; peak RSS ${r.peakMb.toFixed(0)} MB; exit ${r.code}`,
  );
}
const scaling = (lines.length * repeat) / large.seconds / baseRate;
console.log(`scaling (${repeat}× run records/s ÷ baseline records/s): ${scaling.toFixed(2)}× on ${jobs} workers (target ≥ 1.7×)`);
console.log(`peak RSS: ${small.peakMb.toFixed(0)} MB at 1×, ${large.peakMb.toFixed(0)} MB at ${repeat}× (target < 500 MB, flat)`);
rmSync(work, { recursive: true, force: true });

async function writeRepeated(path: string, records: string[], times: number): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < times; i++) {
    for (const line of records) if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Runs the CLI, sampling VmHWM (peak resident set, worker threads included) until it exits. */
async function runCli(input: string, output: string): Promise<{ seconds: number; peakMb: number; code: number | null }> {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'convert', input, '-o', output, '--jobs', String(jobs), '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] });
  let peakKb = 0;
  const sample = (): void => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      if (kb > peakKb) peakKb = kb;
    } catch {
      // The process has just exited.
    }
  };
  const timer = setInterval(sample, 50);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearInterval(timer);
  return { seconds: (performance.now() - started) / 1000, peakMb: peakKb / 1024, code };
}
