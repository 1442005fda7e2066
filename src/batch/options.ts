/**
 * A convert run's settings, validated once: the CLI builds this from its flags, tests and the
 * benchmark build it directly.
 */
import { z } from 'zod';
import { InputKindSchema } from '../io/sources/detect.js';
import { UsageError } from '../io/usage-error.js';
import { DEFAULT_WORKER_HEAP_MB, WORKER_HEAP_MB, WORKER_YOUNG_MB } from '../workers/pool.js';

/** `--worker-heap`: the old-generation cap of each worker, in MB. */
export const WorkerHeapMbSchema = z.number().int().min(WORKER_HEAP_MB.min).max(WORKER_HEAP_MB.max);
/** `--worker-young`: the young generation of each worker, in MB. */
export const WorkerYoungMbSchema = z.number().int().min(WORKER_YOUNG_MB.min).max(WORKER_YOUNG_MB.max);

/** Re-exported: the CLI and the run's own checks refuse with it; it is defined beside the sinks. */
export { UsageError };

export const OUTPUT_FORMATS = ['ndjson', 'json', 'snapshot'] as const;
export const OutputFormatSchema = z.enum(OUTPUT_FORMATS);
export type OutputFormat = z.infer<typeof OutputFormatSchema>;

export const ConvertRunSchema = z.object({
  inputs: z.array(z.string().min(1)).min(1, 'no input given'),
  /** A directory, `FILE.ndjson[.gz]`, `FILE.tar.gz` (snapshot) or `-` for stdout. */
  output: z.string().min(1),
  format: OutputFormatSchema.optional(),
  from: InputKindSchema.optional(),
  jobs: z.number().int().min(1).max(256),
  resume: z.boolean().default(false),
  errors: z.string().min(1).optional(),
  allPages: z.boolean().default(false),
  quiet: z.boolean().default(false),
  progressIntervalMs: z.number().int().min(1).default(10_000),
  checkpointIntervalMs: z.number().int().min(0).default(2_000),
  maxInputBytes: z.number().int().positive().optional(),
  chunkBytes: z.number().int().positive().default(32 * 1024 * 1024),
  /** Heap cap of each worker in MB: a record needing more fails alone. */
  workerHeapMb: WorkerHeapMbSchema.default(DEFAULT_WORKER_HEAP_MB),
  /**
   * Young generation of each worker in MB (`--worker-young`): left out, the pool's
   * (src/workers/pool.ts BATCH_YOUNG_GENERATION_MB, 48).
   */
  workerYoungMb: WorkerYoungMbSchema.optional(),
  /** Articles indented by 2 spaces: `.json` outputs and `-o -` only (NDJSON is one Article per line). */
  pretty: z.boolean().default(false),
  /** A siteinfo file (dump <siteinfo> or API XML) naming the wiki of wikitext records; an XML dump's own wins. */
  siteinfo: z.string().min(1).optional(),
  /**
   * Refuse the run (UsageError) when an input path does not exist, before any output is created.
   * The CLI sets it: a mistyped path is bad usage. Off, a missing input is one failed record, as
   * is an input that disappears or cannot be read mid-run.
   */
  requireInputs: z.boolean().default(false),
});
export type ConvertRun = z.input<typeof ConvertRunSchema>;
export type ResolvedRun = z.output<typeof ConvertRunSchema>;

/**
 * The largest .html/.json file read whole as one record (ReaderContext.wholeFileLimit): a
 * generous multiple of the engine's own limit (--max-input-bytes, 32 MiB by default), so that an
 * article over that limit still reaches the engine and is refused with its size, never under
 * 64 MiB. Shared by a single-machine run and a queue shard, which read alike.
 */
export function wholeFileLimit(maxInputBytes: number | undefined): number {
  return Math.max(4 * (maxInputBytes ?? 32 * 1024 * 1024), 64 * 1024 * 1024);
}

export interface OutputPlan {
  format: OutputFormat;
  gzip: boolean;
  stdout: boolean;
  /** `json` only: one Article in one file (`-o x.json`) instead of a directory of them. */
  singleFile: boolean;
  pretty: boolean;
}

export interface OutputRequest {
  output: string;
  format?: OutputFormat | undefined;
  pretty?: boolean | undefined;
  resume?: boolean | undefined;
}

const ALTERNATIVES = 'use a directory, FILE.json (one Article), FILE.ndjson, FILE.ndjson.gz, FILE.tar.gz or -';

/**
 * The output format (`--format` if given, else from the output name) and every check of the
 * output flags that needs no file system: a run refused here has created nothing.
 */
export function planOutput(request: OutputRequest): OutputPlan {
  const plan = formatOf(request.output, request.format);
  const pretty = request.pretty === true;
  if (pretty && !plan.stdout && plan.format !== 'json') {
    throw new UsageError(`--pretty indents JSON; -o ${request.output} is ${plan.format === 'snapshot' ? 'a snapshot of NDJSON files' : 'NDJSON'}, one Article per line`);
  }
  if (pretty && plan.stdout && request.format === 'ndjson') {
    throw new UsageError('--pretty indents JSON; --format ndjson is one Article per line');
  }
  if (request.resume === true) {
    if (plan.stdout) throw new UsageError('--resume needs a file or directory output, not -o -');
    if (plan.singleFile) throw new UsageError(`--resume needs a directory, NDJSON or snapshot output: -o ${request.output} holds one Article, written when the run ends`);
  }
  return { ...plan, pretty };
}

function formatOf(output: string, format: OutputFormat | undefined): Omit<OutputPlan, 'pretty'> {
  const lower = output.toLowerCase();
  if (output === '-') {
    if (format !== undefined && format !== 'ndjson') throw new UsageError(`-o - writes NDJSON to stdout; --format ${format} needs a file or directory`);
    return { format: 'ndjson', gzip: false, stdout: true, singleFile: false };
  }
  const gzip = lower.endsWith('.gz') || lower.endsWith('.tgz');
  if (format === 'snapshot' || (format === undefined && /\.(tar\.gz|tgz)$/.test(lower))) {
    if (!/\.(tar\.gz|tgz)$/.test(lower)) throw new UsageError(`--format snapshot writes a .tar.gz; got -o ${output}`);
    return { format: 'snapshot', gzip: true, stdout: false, singleFile: false };
  }
  if (format === 'ndjson' || (format === undefined && /\.(ndjson|jsonl)(\.gz)?$/.test(lower))) {
    return { format: 'ndjson', gzip, stdout: false, singleFile: false };
  }
  // `-o x.json` is one Article in one file; a trailing slash (`-o x.json/`) asks for a directory.
  if ((format === undefined || format === 'json') && lower.endsWith('.json')) {
    return { format: 'json', gzip: false, stdout: false, singleFile: true };
  }
  if (format === undefined && /\.(gz|tgz)$/.test(lower)) {
    throw new UsageError(`cannot tell the output format from -o ${output}: ${ALTERNATIVES}`);
  }
  return { format: 'json', gzip: false, stdout: false, singleFile: false };
}
