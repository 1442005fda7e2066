/**
 * Orchestrates a run: inputs ─► records ─► worker pool ─► (input order) ─► sink + errors file,
 * with checkpoints for --resume, progress on stderr and a summary line.
 *
 * Backpressure: at most `jobs × 8` records (and 64 MiB of payload) are between the reader and the
 * sink at any time; the reader is only pulled when there is room, so memory does not grow with
 * the input. Results are awaited in input order, so the output order is the input order.
 */
import { resolve } from 'node:path';
import { checkpointPath, mismatch, readCheckpoint, removeCheckpoint, writeCheckpoint } from './checkpoint.js';
import type { Checkpoint, RunIdentity } from './checkpoint.js';
import type { ConvertOptions } from '../workers/convert-record.js';
import { ConvertRunSchema, planOutput, UsageError } from './options.js';
import type { ConvertRun, OutputPlan, ResolvedRun } from './options.js';
import { WorkerPool } from '../workers/pool.js';
import { Progress } from './progress.js';
import type { ProgressCounts } from './progress.js';
import type { Outcome } from '../io/record.js';
import { preflight } from './preflight.js';
import { DirectorySink } from '../io/sinks/directory.js';
import { ErrorsFile } from '../io/sinks/errors.js';
import type { ErrorLine } from '../io/sinks/errors.js';
import { JsonFileSink } from '../io/sinks/json-file.js';
import { NdjsonFileSink, StdoutSink } from '../io/sinks/ndjson.js';
import type { Sink, SinkState } from '../io/sinks/sink.js';
import { SnapshotSink } from '../io/sinks/snapshot.js';
import { failedOutcome, isFailure, readInputs, totalInputBytes } from '../io/sources/index.js';
import { cutLine } from '../io/sources/input-error.js';
import type { SourceItem } from '../io/sources/index.js';
import { readSiteinfoFile } from '../io/sources/siteinfo.js';

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

const WINDOW_PER_JOB = 8;
const WINDOW_BYTES = 64 * 1024 * 1024;

export async function convert(input: ConvertRun, io: ConvertIo): Promise<ConvertResult> {
  const run = ConvertRunSchema.parse(input);
  const plan = planOutput(run);
  const output = plan.stdout ? '-' : run.output.replace(/\/+$/, '');
  const identity: RunIdentity = { inputs: run.inputs.map((p) => resolve(p)), format: describe(plan), allPages: run.allPages };
  if (run.from !== undefined) identity.from = run.from;

  if (!plan.stdout && identity.inputs.includes(resolve(output))) {
    throw new UsageError(`${output} is both an input and the output`);
  }
  // Read before anything is written: a bad file is bad usage.
  const site = run.siteinfo === undefined ? undefined : readSiteinfoFile(run.siteinfo);
  await preflight(run, plan, output);
  // Stdout cannot be truncated to a checkpoint; a single JSON file is written whole at the end.
  const checkpointFile = plan.stdout || plan.singleFile ? undefined : checkpointPath(output);
  const resumeFrom = await loadResume(run, plan, checkpointFile, identity, io);
  if (checkpointFile !== undefined && resumeFrom === undefined) await removeCheckpoint(checkpointFile);

  const errorsPath = run.errors ?? (plan.stdout ? undefined : `${output}.errors.ndjson`);
  const sink = await openSink(plan, output, run, resumeFrom);
  const errors = errorsPath === undefined ? undefined : await ErrorsFile.open(errorsPath, resumeFrom?.errorsBytes);

  const counts: ProgressCounts = {
    converted: resumeFrom?.counts.converted ?? 0,
    failed: resumeFrom?.counts.failed ?? 0,
    skipped: resumeFrom?.counts.skipped ?? 0,
    inputBytes: 0,
  };
  const progress = new Progress(counts, { quiet: run.quiet, isTTY: io.isTTY, intervalMs: run.progressIntervalMs, write: io.writeErr });
  progress.resumedRecords = resumeFrom?.records ?? 0;
  // The run's own files, should they sit in an input directory (the checkpoint is a .json file).
  const exclude = new Set([resolve(output), ...(errorsPath === undefined ? [] : [resolve(errorsPath)])]);
  if (checkpointFile !== undefined) exclude.add(resolve(checkpointFile)).add(resolve(`${checkpointFile}.tmp`));
  void totalInputBytes(run.inputs, exclude).then((total) => {
    progress.totalBytes = total;
  });

  const convertOptions: ConvertOptions = { allPages: run.allPages, pretty: plan.pretty };
  if (site !== undefined) convertOptions.site = site;
  if (run.maxInputBytes !== undefined) convertOptions.maxInputBytes = run.maxInputBytes;
  const pool = new WorkerPool(run.jobs, convertOptions, run.workerHeapMb);

  let consumed = resumeFrom?.records ?? 0;
  let lastCheckpoint = performance.now();
  let interrupted = false;
  const onAbort = (): void => {
    interrupted = true;
  };
  io.signal?.addEventListener('abort', onAbort);
  if (io.signal?.aborted === true) interrupted = true;

  const checkpoint = async (): Promise<void> => {
    if (checkpointFile === undefined || !sink.canCommit()) return;
    const state: SinkState = await sink.commit();
    const errorsBytes = errors === undefined ? 0 : await errors.sync();
    const cp: Checkpoint = {
      version: 1,
      run: identity,
      records: consumed,
      outputBytes: state.bytes,
      errorsBytes,
      chunks: state.chunks,
      counts: { converted: counts.converted, failed: counts.failed, skipped: counts.skipped },
    };
    await writeCheckpoint(checkpointFile, cp);
    lastCheckpoint = performance.now();
  };

  const settle = async (item: SourceItem, outcome: Outcome): Promise<void> => {
    if (outcome.status === 'ok') {
      if (isFailure(item)) throw new Error('unreachable: an unreadable input has no Article');
      await sink.write(outcome.json, item, outcome.name);
      counts.converted += 1;
    } else if (outcome.status === 'skipped') {
      counts.skipped += 1;
    } else {
      counts.failed += 1;
      const line = errorLine(item, outcome);
      if (errors !== undefined) await errors.write(line);
      progress.log(`wikistruct: ${where(item)}: ${line.message}`);
    }
    consumed += 1;
    if (performance.now() - lastCheckpoint >= run.checkpointIntervalMs) await checkpoint();
  };

  progress.start();
  const window: { item: SourceItem; outcome: Promise<Outcome>; bytes: number }[] = [];
  let windowBytes = 0;
  const limit = run.jobs * WINDOW_PER_JOB;
  let index = 0;
  const skip = resumeFrom?.records ?? 0;
  try {
    for await (const item of readInputs(run.inputs, {
      ...(run.from === undefined ? {} : { from: run.from }),
      exclude,
      onRawBytes: (n) => {
        counts.inputBytes += n;
      },
      wholeFileLimit: Math.max(4 * (run.maxInputBytes ?? 32 * 1024 * 1024), 64 * 1024 * 1024),
    })) {
      index += 1;
      if (index <= skip) continue;
      if (interrupted) break;
      if (isFailure(item)) {
        window.push({ item, outcome: Promise.resolve(failedOutcome(item)), bytes: 0 });
      } else {
        const bytes = item.payload.bytes.length;
        window.push({ item, outcome: pool.run(item.payload), bytes });
        windowBytes += bytes;
      }
      while (window.length >= limit || windowBytes > WINDOW_BYTES) {
        const head = window.shift()!;
        windowBytes -= head.bytes;
        await settle(head.item, await head.outcome);
      }
    }
    for (const head of window.splice(0)) await settle(head.item, await head.outcome);
  } catch (error) {
    // A fatal error (a second Article for one JSON file, a full disk): the errors file is closed,
    // and removed if empty, rather than left behind as a misleading empty file.
    await errors?.close().catch(() => undefined);
    throw error;
  } finally {
    progress.stop();
    io.signal?.removeEventListener('abort', onAbort);
    await pool.close();
  }

  if (interrupted) await checkpoint();
  await sink.close(!interrupted);
  await errors?.close();
  if (!interrupted && checkpointFile !== undefined) await removeCheckpoint(checkpointFile);

  io.writeErr(`${progress.summary(output === '-' ? 'stdout' : output, interrupted)}\n`);
  if (interrupted && checkpointFile !== undefined) io.writeErr('wikistruct convert: run the same command with --resume to continue\n');
  const exitCode = interrupted ? 130 : counts.failed > 0 ? 1 : 0;
  return { converted: counts.converted, failed: counts.failed, skipped: counts.skipped, interrupted, exitCode };
}

/** The output format as a checkpoint records it: resuming must not mix formats or indentation. */
export function describe(plan: OutputPlan): string {
  const format = plan.format === 'ndjson' && plan.gzip ? 'ndjson.gz' : plan.format;
  return plan.pretty ? `${format} (pretty)` : format;
}

async function loadResume(
  run: ResolvedRun,
  plan: OutputPlan,
  file: string | undefined,
  identity: RunIdentity,
  io: ConvertIo,
): Promise<Checkpoint | undefined> {
  if (!run.resume) return undefined;
  if (plan.stdout || file === undefined) throw new UsageError('--resume needs a file or directory output, not -o -');
  const saved = await readCheckpoint(file);
  if (saved === undefined) {
    io.writeErr(`wikistruct convert: no checkpoint at ${file}: starting from the beginning\n`);
    return undefined;
  }
  const why = mismatch(saved.run, identity);
  if (why !== undefined) throw new UsageError(`cannot resume: the checkpoint ${file} belongs to another run (${why}); run without --resume to start over`);
  return saved;
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

export function errorLine(item: SourceItem, outcome: Extract<Outcome, { status: 'failed' }>): ErrorLine {
  const position = item.position;
  const fallback = isFailure(item) || !item.wholeFile ? `${item.source}:${position}` : item.source;
  // An input's last line without its newline that is not JSON: the input was cut inside it.
  const failure = !isFailure(item) && item.unterminated === true && outcome.code === 'MALFORMED_JSON' ? cutLine(outcome.message) : outcome;
  // One failure, one line: multi-line messages (from tools, from exceptions) are flattened.
  const message = failure.message.replace(/\s*\n\s*/g, ' ');
  return { name: outcome.name ?? fallback, source: item.source, position, code: failure.code ?? 'FAILED', message };
}

/**
 * Whether a failure is placed by its input's name alone: a record that is a whole file, or an
 * input that could not be opened (position 0: a missing file, a dangling link, an empty directory).
 */
export function placedByInput(item: SourceItem): boolean {
  return isFailure(item) ? item.position === 0 : item.wholeFile;
}

function where(item: SourceItem): string {
  if (placedByInput(item)) return item.source;
  return `${item.source}:${item.position}`;
}
