/**
 * A convert run's settings, validated once: the CLI builds this from its flags, tests and the
 * benchmark build it directly.
 */
import { z } from 'zod';
import { InputKindSchema } from './sources/detect.js';

/** A run that cannot start as asked (bad output name, unusable checkpoint): exit code 2, not 1. */
export class UsageError extends Error {}

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
  workerHeapMb: z.number().int().min(8).max(65536).default(512),
});
export type ConvertRun = z.input<typeof ConvertRunSchema>;
export type ResolvedRun = z.output<typeof ConvertRunSchema>;

export interface OutputPlan {
  format: OutputFormat;
  gzip: boolean;
  stdout: boolean;
}

/** The output format: `--format` if given, else from the output name. */
export function planOutput(output: string, format: OutputFormat | undefined): OutputPlan {
  const lower = output.toLowerCase();
  if (output === '-') {
    if (format !== undefined && format !== 'ndjson') throw new UsageError(`-o - writes NDJSON to stdout; --format ${format} needs a file or directory`);
    return { format: 'ndjson', gzip: false, stdout: true };
  }
  const gzip = lower.endsWith('.gz') || lower.endsWith('.tgz');
  if (format === 'snapshot' || (format === undefined && /\.(tar\.gz|tgz)$/.test(lower))) {
    if (!/\.(tar\.gz|tgz)$/.test(lower)) throw new UsageError(`--format snapshot writes a .tar.gz; got -o ${output}`);
    return { format: 'snapshot', gzip: true, stdout: false };
  }
  if (format === 'ndjson' || (format === undefined && /\.(ndjson|jsonl)(\.gz)?$/.test(lower))) {
    return { format: 'ndjson', gzip, stdout: false };
  }
  if (format === undefined && /\.(json|gz|tgz)$/.test(lower)) {
    throw new UsageError(`cannot tell the output format from -o ${output}: use a directory, FILE.ndjson, FILE.ndjson.gz, FILE.tar.gz or -`);
  }
  return { format: 'json', gzip: false, stdout: false };
}
