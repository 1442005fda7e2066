/**
 * `convert ... --queue redis://…`: the coordinator of a distributed run. It plans the shards,
 * records the plan in `<output>.parts/plan.json` (on the storage the workers share), enqueues one
 * BullMQ job per shard, follows the jobs (progress summed from the workers' reports), and when
 * every shard is done replays the parts into the output (assemble.ts).
 *
 * The run's state is the plan file, the part files and the jobs in Redis, so a coordinator that
 * died is continued by `--resume`: shards whose part exists are done; the others are enqueued
 * again under the same job ids, which BullMQ does not duplicate. A job Redis lost (restarted
 * without persistence) is enqueued again the same way, by the running coordinator itself.
 */
import { createHash, randomBytes } from 'node:crypto';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Job, Queue } from 'bullmq';
import type { ConvertIo, ConvertResult } from '../run-output.js';
import { openSink } from '../run-output.js';
import { describe } from '../target.js';
import { checkSiteinfoFile } from '../../io/sources/siteinfo.js';
import { ConvertRunSchema, planOutput, UsageError } from '../options.js';
import type { ConvertRun, OutputPlan, ResolvedRun } from '../options.js';
import { preflight } from '../preflight.js';
import { Progress } from '../progress.js';
import type { ProgressCounts } from '../progress.js';
import { ErrorsFile } from '../../io/sinks/errors.js';
import { assemble } from './assemble.js';
import { connect } from './connection.js';
import type { RedisTarget } from './connection.js';
import { planShards } from './plan.js';
import { jobId, partPath, partsDirOf, planPath, RunPlanSchema, ShardCountsSchema } from './shard.js';
import type { RunPlan, ShardCounts, ShardJob, ShardOptions } from './shard.js';

export interface QueueSettings {
  target: RedisTarget;
  queueName: string;
  /** Inputs are grouped, and large NDJSON files cut, into shards of about this many bytes. */
  shardBytes: number;
  /** Attempts of a shard whose conversion throws (a worker's death is counted by BullMQ's maxStalledCount). */
  attempts: number;
  pollMs: number;
  /** How long Redis may be unreachable before the coordinator stops (the run can be resumed). */
  redisTimeoutMs: number;
}

export type QueueConvertRun = ConvertRun & { queue: QueueSettings };

/** The conversion settings every shard of the run carries: those of a single-machine run of it (batch/convert.ts convertOptions). */
export function shardOptionsOf(run: ResolvedRun, outputPlan: OutputPlan): ShardOptions {
  const options: ShardOptions = { allPages: run.allPages, pretty: outputPlan.pretty, workerHeapMb: run.workerHeapMb };
  if (run.from !== undefined) options.from = run.from;
  if (run.workerYoungMb !== undefined) options.workerYoungMb = run.workerYoungMb;
  if (run.maxInputBytes !== undefined) options.maxInputBytes = run.maxInputBytes;
  // Absolute: workers run from any directory; they read the file (shared storage, as the inputs).
  if (run.siteinfo !== undefined) options.siteinfo = resolve(run.siteinfo);
  return options;
}

export async function convertOnQueue(input: QueueConvertRun, io: ConvertIo): Promise<ConvertResult> {
  const settings = input.queue;
  const run = ConvertRunSchema.parse(input);
  const outputPlan = planOutput(run);
  if (outputPlan.stdout || outputPlan.singleFile) {
    throw new UsageError(`--queue needs a directory, FILE.ndjson[.gz] or FILE.tar.gz output on storage every worker shares; got -o ${run.output}`);
  }
  const output = run.output.replace(/\/+$/, '');
  if (run.inputs.map((p) => resolve(p)).includes(resolve(output))) throw new UsageError(`${output} is both an input and the output`);
  // Read before anything is written or queued: a bad file is bad usage (workers read it again).
  if (run.siteinfo !== undefined) await checkSiteinfoFile(run.siteinfo);
  await preflight(run, outputPlan, output);
  const partsDir = resolve(partsDirOf(output));
  const errorsPath = run.errors ?? `${output}.errors.ndjson`;
  const exclude = new Set([resolve(output), resolve(errorsPath), partsDir]);
  const options = shardOptionsOf(run, outputPlan);
  const runId = createHash('sha256')
    .update(JSON.stringify({ inputs: run.inputs.map((p) => resolve(p)), output: resolve(output), format: describe(outputPlan), options }))
    .digest('hex');

  const connection = connect(settings.target);
  const queue = new Queue(settings.queueName, { connection });
  const counts: ProgressCounts = { converted: 0, failed: 0, skipped: 0, inputBytes: 0 };
  const progress = new Progress(counts, { quiet: run.quiet, isTTY: io.isTTY, intervalMs: run.progressIntervalMs, write: io.writeErr });
  try {
    await withTimeout(queue.waitUntilReady(), settings.redisTimeoutMs, () => unreachable(settings, 'cannot reach Redis'));
    const plan = await loadOrMakePlan(run, settings, { runId, partsDir, exclude, options }, queue, io);
    progress.totalBytes = plan.shards.reduce((sum, pieces) => sum + pieces.reduce((s, p) => s + p.bytes, 0), 0);
    const follow = new Follower(plan, partsDir, queue, settings, io);
    await follow.enqueueMissing();
    progress.start();
    let interrupted = io.signal?.aborted === true;
    const onAbort = (): void => {
      interrupted = true;
    };
    io.signal?.addEventListener('abort', onAbort);
    try {
      let lastContact = performance.now();
      while (!interrupted && !follow.finished()) {
        try {
          await withTimeout(follow.poll(), settings.pollMs * 4 + 1000, () => new Error('no answer'));
          lastContact = performance.now();
        } catch (error) {
          if (performance.now() - lastContact > settings.redisTimeoutMs) throw unreachable(settings, error instanceof Error ? error.message : String(error));
        }
        Object.assign(counts, follow.totals());
        if (!follow.finished()) await sleep(settings.pollMs, undefined, io.signal === undefined ? {} : { signal: io.signal }).catch(() => undefined);
      }
    } finally {
      io.signal?.removeEventListener('abort', onAbort);
      progress.stop();
    }
    if (interrupted) {
      io.writeErr(`wikistruct convert: coordinator interrupted; the workers go on with the queued shards: run the same command with --resume to continue\n`);
      return { ...pick(counts), interrupted: true, exitCode: 130 };
    }

    Object.assign(counts, { converted: 0, failed: 0, skipped: 0 });
    const sink = await openSink(outputPlan, output, run, undefined);
    const errors = await ErrorsFile.open(errorsPath);
    try {
      await assemble(plan, partsDir, follow.failures, { sink, errors, counts, progress });
    } catch (error) {
      await errors.close().catch(() => undefined);
      throw error;
    }
    await sink.close(true);
    await errors.close();
    await rm(partsDir, { recursive: true, force: true });
    await follow.removeJobs().catch(() => undefined);
    io.writeErr(`${progress.summary(output, false)}\n`);
    return { ...pick(counts), interrupted: false, exitCode: counts.failed > 0 ? 1 : 0 };
  } finally {
    await queue.close().catch(() => undefined);
    connection.disconnect();
  }
}

function pick(counts: ProgressCounts): Pick<ConvertResult, 'converted' | 'failed' | 'skipped'> {
  return { converted: counts.converted, failed: counts.failed, skipped: counts.skipped };
}

function unreachable(settings: QueueSettings, why: string): Error {
  return new Error(
    `lost Redis at ${settings.target.url} for more than ${settings.redisTimeoutMs / 1000} s (${why}); finished shards are kept in ${'<output>.parts'}: run the same command with --resume once Redis is back`,
  );
}

interface RunContext {
  runId: string;
  partsDir: string;
  exclude: ReadonlySet<string>;
  options: ShardOptions;
}

async function loadOrMakePlan(run: ResolvedRun, settings: QueueSettings, ctx: RunContext, queue: Queue, io: ConvertIo): Promise<RunPlan> {
  const saved = await readPlan(ctx.partsDir);
  if (run.resume) {
    if (saved === undefined) {
      io.writeErr(`wikistruct convert: no distributed run to resume at ${ctx.partsDir}: starting from the beginning\n`);
    } else if (saved.runId !== ctx.runId) {
      throw new UsageError(`cannot resume: ${ctx.partsDir} belongs to another run (other inputs, output or options); run without --resume to start over`);
    } else {
      return saved;
    }
  }
  if (saved !== undefined) {
    // Starting over: the old run's waiting shards are withdrawn (active ones finish, and are then ignored).
    await Promise.all(saved.shards.map((_, i) => queue.remove(jobId(saved, i)).catch(() => 0)));
  }
  await rm(ctx.partsDir, { recursive: true, force: true });
  await mkdir(ctx.partsDir, { recursive: true });
  const shards = await planShards({ inputs: run.inputs, exclude: ctx.exclude, from: run.from, shardBytes: settings.shardBytes });
  const plan: RunPlan = { version: 1, runId: ctx.runId, nonce: randomBytes(8).toString('hex'), options: ctx.options, shards };
  const file = planPath(ctx.partsDir);
  await writeFile(`${file}.tmp`, `${JSON.stringify(plan)}\n`);
  await rename(`${file}.tmp`, file);
  return plan;
}

async function readPlan(partsDir: string): Promise<RunPlan | undefined> {
  let text: string;
  try {
    text = await readFile(planPath(partsDir), 'utf8');
  } catch {
    return undefined;
  }
  const parsed = RunPlanSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new UsageError(`${planPath(partsDir)} is not a plan of this version of wikistruct; delete ${partsDir} and run without --resume`);
  return parsed.data;
}

/** Follows the shard jobs of one run: which are done, which failed for good, the progress of the rest. */
class Follower {
  private readonly pending = new Set<number>();
  private readonly done = new Map<number, ShardCounts>();
  private readonly live = new Map<number, ShardCounts>();
  readonly failures = new Map<number, string>();
  private requeued = 0;

  constructor(
    private readonly plan: RunPlan,
    private readonly partsDir: string,
    private readonly queue: Queue,
    private readonly settings: QueueSettings,
    private readonly io: ConvertIo,
  ) {
    for (let i = 0; i < plan.shards.length; i++) this.pending.add(i);
  }

  finished(): boolean {
    return this.pending.size === 0;
  }

  /** Enqueues every shard without a part; a job id already in Redis is not added twice. */
  async enqueueMissing(): Promise<void> {
    const missing: number[] = [];
    for (const index of this.pending) if (!(await this.hasPart(index))) missing.push(index);
    const jobs = missing.map((index) => ({ name: 'shard', data: this.jobData(index), opts: this.jobOptions(index) }));
    for (let i = 0; i < jobs.length; i += 500) await this.queue.addBulk(jobs.slice(i, i + 500));
  }

  async poll(): Promise<void> {
    await Promise.all([...this.pending].map((index) => this.check(index)));
  }

  totals(): ShardCounts {
    const sum: ShardCounts = { converted: 0, failed: 0, skipped: 0, inputBytes: 0 };
    for (const c of [...this.done.values(), ...this.live.values()]) {
      sum.converted += c.converted;
      sum.failed += c.failed;
      sum.skipped += c.skipped;
      sum.inputBytes += c.inputBytes;
    }
    return sum;
  }

  async removeJobs(): Promise<void> {
    await Promise.all(this.plan.shards.map((_, i) => this.queue.remove(jobId(this.plan, i))));
  }

  private async check(index: number): Promise<void> {
    const job = await Job.fromId(this.queue, jobId(this.plan, index));
    if (job === undefined) {
      if (await this.hasPart(index)) {
        this.finish(index, undefined);
        return;
      }
      // Redis no longer knows the job (restarted without its data): the part is missing, so queue it again.
      this.requeued += 1;
      if (this.requeued <= 3) this.io.writeErr(`wikistruct convert: shard ${index} is no longer in Redis and not written: queued again\n`);
      await this.queue.add('shard', this.jobData(index), this.jobOptions(index));
      return;
    }
    if (job.finishedOn !== undefined && job.finishedOn > 0) {
      if (job.failedReason !== undefined && job.failedReason !== '' && (job.returnvalue === null || job.returnvalue === undefined)) {
        this.failures.set(index, `${job.failedReason} (after ${job.attemptsMade} attempt(s) and ${job.stalledCounter} worker loss(es))`);
        this.pending.delete(index);
        this.live.delete(index);
        return;
      }
      if (await this.hasPart(index)) {
        const counts = ShardCountsSchema.safeParse(job.returnvalue);
        this.finish(index, counts.success ? counts.data : undefined);
        return;
      }
    }
    const progress = ShardCountsSchema.safeParse(job.progress);
    if (progress.success) this.live.set(index, progress.data);
  }

  private finish(index: number, counts: ShardCounts | undefined): void {
    this.pending.delete(index);
    this.live.delete(index);
    const bytes = this.plan.shards[index]!.reduce((s, p) => s + p.bytes, 0);
    this.done.set(index, counts ?? { converted: 0, failed: 0, skipped: 0, inputBytes: bytes });
  }

  private hasPart(index: number): Promise<boolean> {
    return access(partPath(this.partsDir, this.plan.nonce, index)).then(() => true, () => false);
  }

  private jobData(index: number): ShardJob {
    return { version: 1, nonce: this.plan.nonce, partsDir: this.partsDir, index, pieces: this.plan.shards[index]!, options: this.plan.options };
  }

  private jobOptions(index: number) {
    return {
      jobId: jobId(this.plan, index),
      attempts: this.settings.attempts,
      backoff: { type: 'fixed' as const, delay: 1000 },
      // Kept until the run is assembled: a resumed coordinator reads their state.
      removeOnComplete: false,
      removeOnFail: false,
    };
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
