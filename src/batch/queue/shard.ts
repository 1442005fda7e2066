/**
 * What a shard is, as a job carries it and as the run's plan file records it. A shard is a list of
 * pieces read in order: whole input files (small ones grouped), or a byte range of a large
 * uncompressed NDJSON file cut at a line boundary, with the number of its first line so that
 * positions in the errors file are those of a single-machine run.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { InputKindSchema } from '../../io/sources/detect.js';
import { WorkerHeapMbSchema, WorkerYoungMbSchema } from '../options.js';

export const PieceSchema = z.object({
  /** Absolute path: workers run from any directory, on any machine sharing the file system. */
  path: z.string().min(1),
  /** The path as the run names it (as given on the command line): the `source` of its records. */
  label: z.string().min(1),
  /** Byte range [start, end) of an NDJSON file; absent for a whole file. */
  start: z.number().int().nonnegative().optional(),
  end: z.number().int().nonnegative().optional(),
  firstLine: z.number().int().positive().optional(),
  bytes: z.number().int().nonnegative(),
  /** The planner's walk found the path unreadable: the worker reports this, as a single run would. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type Piece = z.infer<typeof PieceSchema>;

/** The conversion settings a worker needs: the same for every shard of a run. */
export const ShardOptionsSchema = z.object({
  allPages: z.boolean(),
  pretty: z.boolean(),
  from: InputKindSchema.optional(),
  maxInputBytes: z.number().int().positive().optional(),
  workerHeapMb: WorkerHeapMbSchema,
  /** `--worker-young`, when the run names it; else each worker machine takes the pool's default. */
  workerYoungMb: WorkerYoungMbSchema.optional(),
  /** `--siteinfo FILE`, absolute (workers share the file system, as for the inputs): the wiki of wikitext records. */
  siteinfo: z.string().min(1).optional(),
});
export type ShardOptions = z.infer<typeof ShardOptionsSchema>;

export const ShardJobSchema = z.object({
  version: z.literal(1),
  nonce: z.string().regex(/^[0-9a-f]{16}$/),
  partsDir: z.string().min(1),
  index: z.number().int().nonnegative(),
  pieces: z.array(PieceSchema).min(1),
  options: ShardOptionsSchema,
});
export type ShardJob = z.infer<typeof ShardJobSchema>;

export const RunPlanSchema = z.object({
  version: z.literal(1),
  /** Hash of inputs, output and settings: `--resume` continues only the same run. */
  runId: z.string(),
  /** Fresh for every run started without --resume: jobs of an abandoned run are recognised as stale. */
  nonce: z.string().regex(/^[0-9a-f]{16}$/),
  options: ShardOptionsSchema,
  shards: z.array(z.array(PieceSchema).min(1)),
});
export type RunPlan = z.infer<typeof RunPlanSchema>;

/** Counts a shard reports, as progress while it runs and as its job's result. */
export const ShardCountsSchema = z.object({
  converted: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  inputBytes: z.number().nonnegative(),
});
export type ShardCounts = z.infer<typeof ShardCountsSchema>;

export function partsDirOf(output: string): string {
  return `${output}.parts`;
}

export function planPath(partsDir: string): string {
  return join(partsDir, 'plan.json');
}

/**
 * A shard's finished output: present only once complete (written under another name, then
 * renamed). The run's nonce is in the name, so a late worker of an abandoned run cannot put its
 * part in place of this run's.
 */
export function partPath(partsDir: string, nonce: string, index: number): string {
  return join(partsDir, `shard-${nonce}-${String(index).padStart(6, '0')}.part`);
}

/** BullMQ job ids may not be integers nor hold colons. */
export function jobId(plan: Pick<RunPlan, 'runId' | 'nonce'>, index: number): string {
  return `${plan.runId.slice(0, 16)}-${plan.nonce}-${index}`;
}
