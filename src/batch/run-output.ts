/**
 * Where a single-machine run's outcomes go, in input order: Articles to the sink, failures to the
 * errors file and to stderr, the counts to the progress line and the summary, and — every
 * `--checkpoint-interval`, and when the run is interrupted — a checkpoint of what both files
 * hold, which --resume continues from.
 */
import { removeCheckpoint, writeCheckpoint } from './checkpoint.js';
import type { Checkpoint } from './checkpoint.js';
import { errorLine, where } from './failures.js';
import type { Settle } from './in-order.js';
import type { OutputPlan, ResolvedRun } from './options.js';
import { Progress } from './progress.js';
import type { ProgressCounts } from './progress.js';
import type { RunTarget } from './target.js';
import { DirectorySink } from '../io/sinks/directory.js';
import { ErrorsFile } from '../io/sinks/errors.js';
import { JsonFileSink } from '../io/sinks/json-file.js';
import { NdjsonFileSink, StdoutSink } from '../io/sinks/ndjson.js';
import type { Sink } from '../io/sinks/sink.js';
import { SnapshotSink } from '../io/sinks/snapshot.js';
import { isFailure } from '../io/sources/index.js';

export interface ConvertIo {
  /** Progress, failure lines and the summary go here (stderr in the CLI). */
  writeErr: (text: string) => void;
  isTTY: boolean;
  /** Stops the run as Ctrl-C does (used by the CLI's signal handlers). */
  signal?: AbortSignal;
}

export interface ConvertResult {
  converted: number;
  failed: number;
  skipped: number;
  interrupted: boolean;
  exitCode: number;
}

export class RunOutput {
  readonly progress: Progress;
  /** Input records settled, a resumed run's earlier ones included: the checkpoint's `records`. */
  private consumed: number;
  private lastCheckpoint = performance.now();

  private constructor(
    private readonly run: ResolvedRun,
    private readonly target: RunTarget,
    private readonly sink: Sink,
    private readonly errors: ErrorsFile | undefined,
    readonly counts: ProgressCounts,
    private readonly io: ConvertIo,
  ) {
    this.consumed = target.resumeFrom?.records ?? 0;
    this.progress = new Progress(counts, { quiet: run.quiet, isTTY: io.isTTY, intervalMs: run.progressIntervalMs, write: io.writeErr });
    this.progress.resumedRecords = this.consumed;
  }

  /** Opens the sink and the errors file, truncated to the checkpoint of a resumed run. */
  static async open(run: ResolvedRun, target: RunTarget, io: ConvertIo): Promise<RunOutput> {
    const resume = target.resumeFrom;
    const sink = await openSink(target.plan, target.output, run, resume);
    const errors = target.errorsPath === undefined ? undefined : await ErrorsFile.open(target.errorsPath, resume?.errorsBytes);
    const counts: ProgressCounts = { converted: resume?.counts.converted ?? 0, failed: resume?.counts.failed ?? 0, skipped: resume?.counts.skipped ?? 0, inputBytes: 0 };
    return new RunOutput(run, target, sink, errors, counts, io);
  }

  /** The conversion starts: the progress line, and the clock of the checkpoints. */
  start(): void {
    this.lastCheckpoint = performance.now();
    this.progress.start();
  }

  readonly settle: Settle = async (item, outcome) => {
    if (outcome.status === 'ok') {
      if (isFailure(item)) throw new Error('unreachable: an unreadable input has no Article');
      await this.sink.write(outcome.json, item, outcome.name);
      this.counts.converted += 1;
    } else if (outcome.status === 'skipped') {
      this.counts.skipped += 1;
    } else {
      this.counts.failed += 1;
      const line = errorLine(item, outcome);
      if (this.errors !== undefined) await this.errors.write(line);
      this.progress.log(`wikistruct: ${where(item)}: ${line.message}`);
    }
    this.consumed += 1;
    if (performance.now() - this.lastCheckpoint >= this.run.checkpointIntervalMs) await this.checkpoint();
  };

  /**
   * After a fatal error (a second Article for one JSON file, a full disk): the errors file is
   * closed, and removed if empty, rather than left behind as a misleading empty file.
   */
  async abandon(): Promise<void> {
    await this.errors?.close().catch(() => undefined);
  }

  /** Completes the outputs, or, interrupted, checkpoints them for --resume. */
  async close(interrupted: boolean): Promise<void> {
    if (interrupted) await this.checkpoint();
    await this.sink.close(!interrupted);
    await this.errors?.close();
    if (!interrupted && this.target.checkpointFile !== undefined) await removeCheckpoint(this.target.checkpointFile);
  }

  /** Prints the summary line (and how to continue an interrupted run); the exit code follows the counts. */
  summary(interrupted: boolean): ConvertResult {
    const { output, checkpointFile } = this.target;
    this.io.writeErr(`${this.progress.summary(output === '-' ? 'stdout' : output, interrupted)}\n`);
    if (interrupted && checkpointFile !== undefined) this.io.writeErr('wikistruct convert: run the same command with --resume to continue\n');
    const { converted, failed, skipped } = this.counts;
    return { converted, failed, skipped, interrupted, exitCode: interrupted ? 130 : failed > 0 ? 1 : 0 };
  }

  /** Written only once both files are synced, so it always describes a prefix both hold. */
  private async checkpoint(): Promise<void> {
    const { checkpointFile, identity } = this.target;
    if (checkpointFile === undefined || !this.sink.canCommit()) return;
    const state = await this.sink.commit();
    const errorsBytes = this.errors === undefined ? 0 : await this.errors.sync();
    const { converted, failed, skipped } = this.counts;
    const checkpoint: Checkpoint = {
      version: 1,
      run: identity,
      records: this.consumed,
      outputBytes: state.bytes,
      errorsBytes,
      chunks: state.chunks,
      counts: { converted, failed, skipped },
    };
    await writeCheckpoint(checkpointFile, checkpoint);
    this.lastCheckpoint = performance.now();
  }
}

export async function openSink(plan: OutputPlan, output: string, run: ResolvedRun, resume: Checkpoint | undefined): Promise<Sink> {
  if (plan.stdout) return new StdoutSink();
  switch (plan.format) {
    case 'ndjson':
      return NdjsonFileSink.open(output, plan.gzip, resume?.outputBytes);
    case 'snapshot':
      return SnapshotSink.open(output, run.chunkBytes, resume === undefined ? undefined : { bytes: resume.outputBytes, chunks: resume.chunks });
    case 'json':
      return plan.singleFile ? new JsonFileSink(output) : DirectorySink.open(output);
    default: {
      const unknown: never = plan.format;
      throw new Error(`unknown output format ${String(unknown)}`);
    }
  }
}
