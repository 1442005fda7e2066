/**
 * Distributed conversion on this machine: records/s of `convert --queue` with 1, 2 and 3
 * `wikistruct worker` processes (one thread each) on the local Redis, over the 1× corpus HTML.
 * The machine has 2 cores, so wall-clock records/s cannot grow past 2 workers; what carries over
 * to N machines is the CPU each record costs:
 *
 *   - CPU-normalised throughput: records per CPU second (workers + coordinator);
 *   - the coordinator's CPU per record (it plans, follows the jobs and assembles the output);
 *   - the per-shard overhead: CPU beyond a single-machine run of the same inputs, per shard.
 *
 * The baseline is `convert()` with one worker thread in this process (process.cpuUsage counts
 * its threads); the coordinator runs in this process too; each worker's CPU is read from
 * /proc/<pid>/stat (utime + stime, all threads). docs/scale-out.md projects N machines from these.
 *
 *   npm run bench:distributed [-- --shard-size 4M --redis redis://127.0.0.1:6379]
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { corpusDir } from '../scripts/conformance/corpus.js';
import { convert } from '../src/batch/convert.js';
import { parseRedisUrl } from '../src/batch/queue/connection.js';
import { convertOnQueue } from '../src/batch/queue/coordinator.js';
import { planShards } from '../src/batch/queue/plan.js';

const { values } = parseArgs({ options: { 'shard-size': { type: 'string', default: '4M' }, redis: { type: 'string', default: 'redis://127.0.0.1:6379' } } });
const shardBytes = Number.parseInt(values['shard-size'], 10) * 1024 * 1024;
const MAIN = new URL('../dist/src/cli/main.js', import.meta.url).pathname;
const TICK = 100; // USER_HZ: /proc times are in 1/100 s on Linux
const corpus = corpusDir();
if (corpus === undefined) throw new Error('no corpus: set WIKISTRUCT_CORPUS to a directory with html/');
const input = join(corpus, 'html');
const work = mkdtempSync(join(tmpdir(), 'wikistruct-bench-distributed-'));
const quietIo = { writeErr: () => undefined, isTTY: false };

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK;
}

function startWorker(queue: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN, 'worker', '--queue', values.redis, '--queue-name', queue, '-j', '1'], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve) => {
    let text = '';
    child.stderr!.on('data', (c: Buffer) => {
      text += c.toString();
      if (text.includes('waiting for shards')) resolve(child);
    });
  });
}

async function baseline(): Promise<{ records: number; cpu: number; wall: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await convert({ inputs: [input], output: join(work, 'single.ndjson'), jobs: 1, quiet: true }, quietIo);
  const cpu = process.cpuUsage(cpu0);
  return { records: result.converted + result.failed, cpu: (cpu.user + cpu.system) / 1e6, wall: (performance.now() - t0) / 1000 };
}

async function distributed(workers: number): Promise<Record<string, number>> {
  const queue = `wikistruct-bench-${process.pid}-${workers}`;
  const children = await Promise.all(Array.from({ length: workers }, () => startWorker(queue)));
  const before = children.map((c) => cpuSeconds(c.pid!));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const settings = { target: parseRedisUrl(values.redis), queueName: queue, shardBytes, attempts: 3, pollMs: 250, redisTimeoutMs: 60_000 };
  const result = await convertOnQueue({ inputs: [input], output: join(work, `distributed-${workers}.ndjson`), jobs: 1, quiet: true, queue: settings }, quietIo);
  const wall = (performance.now() - t0) / 1000;
  const coordinator = process.cpuUsage(cpu0);
  const workerCpu = children.reduce((sum, c, i) => sum + cpuSeconds(c.pid!) - before[i]!, 0);
  for (const c of children) c.kill('SIGKILL');
  const connection = new Redis(values.redis, { maxRetriesPerRequest: null });
  const q = new Queue(queue, { connection });
  await q.obliterate({ force: true });
  await q.close();
  connection.disconnect();
  return { records: result.converted + result.failed, wall, workerCpu, coordinatorCpu: (coordinator.user + coordinator.system) / 1e6 };
}

try {
  const base = await baseline();
  const shards = (await planShards({ inputs: [input], exclude: new Set(), shardBytes })).length;
  console.log(`corpus ${input}: ${base.records} records in ${shards} shards of about ${values['shard-size']}`);
  console.log(`single machine, 1 thread: ${(base.records / base.wall).toFixed(1)} records/s, ${(base.records / base.cpu).toFixed(1)} records per CPU s`);
  const single = readFileSync(join(work, 'single.ndjson'));
  for (const n of [1, 2, 3]) {
    const r = await distributed(n);
    const same = readFileSync(join(work, `distributed-${n}.ndjson`)).equals(single);
    const cpu = r.workerCpu! + r.coordinatorCpu!;
    console.log(
      `${n} worker process(es): ${(r.records! / r.wall!).toFixed(1)} records/s wall, ${(r.records! / cpu).toFixed(1)} records per CPU s, ` +
        `coordinator ${((r.coordinatorCpu! / r.records!) * 1000).toFixed(2)} ms CPU per record, ` +
        `CPU beyond the single-machine run ${(cpu - base.cpu).toFixed(2)} s (${((cpu - base.cpu) / shards).toFixed(3)} s per shard), ` +
        `output ${same ? 'identical' : 'DIFFERENT'}`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
