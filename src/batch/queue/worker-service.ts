/**
 * `wikistruct worker`: a BullMQ worker taking shard jobs and converting each on this machine's
 * worker threads. BullMQ owns the hard parts: the job lock this process renews while it works,
 * and stalled-job recovery — when a worker dies (`kill -9`, a lost machine) its lock expires and
 * another worker's stalled check moves the job back to the queue, at most `maxStalledCount`
 * times before the job fails for good.
 */
import { readFile } from 'node:fs/promises';
import { Worker } from 'bullmq';
import type { Job } from 'bullmq';
import { WorkerPool } from '../../workers/pool.js';
import type { ConvertOptions } from '../../workers/convert-record.js';
import { readSiteinfoText } from '../../io/sources/siteinfo.js';
import { connect } from './connection.js';
import type { RedisTarget } from './connection.js';
import { runShard } from './run-shard.js';
import { planPath, RunPlanSchema, ShardJobSchema } from './shard.js';
import type { ShardCounts, ShardJob, ShardOptions } from './shard.js';
import { testPauseHook } from './test-hooks.js';

export interface WorkerSettings {
  target: RedisTarget;
  queueName: string;
  /** Worker threads converting records. */
  jobs: number;
  /** Shards converted at once by this process (each on the shared thread pool). */
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  maxStalledCount: number;
  progressIntervalMs: number;
}

export interface WorkerIo {
  writeErr: (text: string) => void;
  signal: AbortSignal;
}

export async function runWorker(settings: WorkerSettings, io: WorkerIo): Promise<void> {
  const connection = connect(settings.target);
  const pools = new PoolCache(settings.jobs);
  const pause = testPauseHook(io.writeErr);
  const processor = async (job: Job): Promise<ShardCounts & { obsolete?: boolean }> => {
    const parsed = ShardJobSchema.safeParse(job.data);
    if (!parsed.success) throw new Error(`job ${job.id} is not a shard of this version of wikistruct: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    const shard = parsed.data;
    const empty = { converted: 0, failed: 0, skipped: 0, inputBytes: 0 };
    if (!(await isCurrent(shard))) {
      io.writeErr(`wikistruct worker: shard ${shard.index} belongs to a run that was started over or finished: skipped\n`);
      return { ...empty, obsolete: true };
    }
    const started = performance.now();
    let last = 0;
    const result = await runShard(shard, pools.get(shard.options), {
      onProgress: (counts) => {
        const now = performance.now();
        if (now - last < settings.progressIntervalMs) return;
        last = now;
        // Progress is advisory: a lost update (Redis briefly away) must not fail the shard.
        void job.updateProgress({ ...counts }).catch(() => undefined);
      },
      beforeSettle: (settled) => pause(shard.index, settled),
    });
    const records = result.converted + result.failed + result.skipped;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    io.writeErr(`wikistruct worker: shard ${shard.index} ${result.reused ? 'was already written' : `done: ${records} records in ${seconds} s`}\n`);
    return { converted: result.converted, failed: result.failed, skipped: result.skipped, inputBytes: result.inputBytes };
  };
  const worker = new Worker(settings.queueName, processor, {
    connection,
    concurrency: settings.concurrency,
    lockDuration: settings.lockDurationMs,
    stalledInterval: settings.stalledIntervalMs,
    maxStalledCount: settings.maxStalledCount,
  });
  let lastError = '';
  worker.on('error', (error) => {
    // Connection errors repeat while Redis is away; one line per distinct message is enough.
    if (error.message === lastError) return;
    lastError = error.message;
    io.writeErr(`wikistruct worker: ${error.message}\n`);
  });
  worker.on('failed', (job, error) => {
    if (job !== undefined) io.writeErr(`wikistruct worker: shard job ${job.id} failed: ${error.message}\n`);
  });
  await worker.waitUntilReady();
  io.writeErr(`wikistruct worker: waiting for shards on ${settings.target.url} (queue ${settings.queueName}, ${settings.jobs} threads)\n`);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  io.writeErr('wikistruct worker: stopping after the shards in progress\n');
  await worker.close();
  await pools.close();
  connection.disconnect();
}

/** Whether the job's run is still the one in its parts directory (not started over, not finished). */
async function isCurrent(shard: ShardJob): Promise<boolean> {
  try {
    const plan = RunPlanSchema.parse(JSON.parse(await readFile(planPath(shard.partsDir), 'utf8')));
    return plan.nonce === shard.nonce;
  } catch {
    return false;
  }
}

/**
 * How this worker's threads convert a shard's records: as a single-machine run of the same
 * inputs would (batch/convert.ts convertOptions), the run's `--siteinfo` read from its file.
 */
export function shardConvertOptions(options: ShardOptions): ConvertOptions {
  const convert: ConvertOptions = { allPages: options.allPages, pretty: options.pretty };
  if (options.siteinfo !== undefined) convert.siteinfo = readSiteinfoText(options.siteinfo);
  if (options.maxInputBytes !== undefined) convert.maxInputBytes = options.maxInputBytes;
  return convert;
}

/** One thread pool per set of conversion options (in practice one per run), kept between shards. */
class PoolCache {
  private key = '';
  private pool: WorkerPool | undefined;

  constructor(private readonly jobs: number) {}

  get(options: ShardOptions): WorkerPool {
    const key = JSON.stringify(options);
    if (this.pool === undefined || key !== this.key) {
      // Shards of another run with other options: the old pool finishes what it has, then goes.
      const old = this.pool;
      if (old !== undefined) setTimeout(() => void old.close(), 60_000).unref();
      this.pool = new WorkerPool(this.jobs, shardConvertOptions(options), { heapMb: options.workerHeapMb, youngGenerationMb: options.workerYoungMb });
      this.key = key;
    }
    return this.pool;
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}
