/**
 * Orchestrates a run: inputs ─► records ─► worker pool ─► (input order) ─► sink + errors file,
 * with checkpoints for --resume, progress on stderr and a summary line. Each part is its own
 * module: where the run writes and resumes from (target.ts), the loop that keeps the input order
 * within a bounded window (in-order.ts), what becomes of each outcome (run-output.ts).
 */
import { convertInOrder } from './in-order.js';
import { ConvertRunSchema, wholeFileLimit } from './options.js';
import type { ConvertRun, ResolvedRun } from './options.js';
import type { ProgressCounts } from './progress.js';
import { RunOutput } from './run-output.js';
import type { ConvertIo, ConvertResult } from './run-output.js';
import { resolveTarget } from './target.js';
import type { RunTarget } from './target.js';
import type { SourceItem } from '../io/sources/index.js';
import { readInputs, totalInputBytes } from '../io/sources/index.js';
import type { ConvertOptions } from '../workers/convert-record.js';
import { WorkerPool } from '../workers/pool.js';

export type { ConvertIo, ConvertResult } from './run-output.js';

export async function convert(input: ConvertRun, io: ConvertIo): Promise<ConvertResult> {
  const run = ConvertRunSchema.parse(input);
  const target = await resolveTarget(run, io.writeErr);
  const output = await RunOutput.open(run, target, io);
  // The percentage and ETA, once the inputs are measured (in the background: a directory can be large).
  void totalInputBytes(run.inputs, target.exclude).then((total) => {
    output.progress.totalBytes = total;
  });
  const pool = new WorkerPool(run.jobs, convertOptions(run, target), { heapMb: run.workerHeapMb, youngGenerationMb: run.workerYoungMb });

  let interrupted = false;
  output.start();
  try {
    await convertInOrder(recordsToConvert(run, target, output.counts, io.signal), pool, output.settle);
  } catch (error) {
    await output.abandon();
    throw error;
  } finally {
    output.progress.stop();
    // Ctrl-C at any time until the loop is over interrupts the run, even during its last records.
    interrupted = io.signal?.aborted === true;
    await pool.close();
  }
  await output.close(interrupted);
  return output.summary(interrupted);
}

/** How the run's threads convert each record (a shard of a `--queue` run: queue/worker-service.ts shardConvertOptions). */
export function convertOptions(run: ResolvedRun, target: RunTarget): ConvertOptions {
  const options: ConvertOptions = { allPages: run.allPages, pretty: target.plan.pretty };
  if (target.siteinfo !== undefined) options.siteinfo = target.siteinfo;
  if (run.maxInputBytes !== undefined) options.maxInputBytes = run.maxInputBytes;
  return options;
}

/**
 * The records the run still has to convert: every input read in order (the run's own files left
 * out), past the records a resumed run had already written, and no further once the run is
 * interrupted (the record read when Ctrl-C came is left for --resume).
 */
async function* recordsToConvert(run: ResolvedRun, target: RunTarget, counts: ProgressCounts, signal: AbortSignal | undefined): AsyncGenerator<SourceItem> {
  const skip = target.resumeFrom?.records ?? 0;
  const items = readInputs(run.inputs, {
    ...(run.from === undefined ? {} : { from: run.from }),
    exclude: target.exclude,
    onRawBytes: (n) => {
      counts.inputBytes += n;
    },
    wholeFileLimit: wholeFileLimit(run.maxInputBytes),
  });
  let index = 0;
  for await (const item of items) {
    index += 1;
    if (index <= skip) continue;
    if (signal?.aborted === true) return;
    yield item;
  }
}
