/**
 * Resume state of a file output: how many input records are fully written, and the exact output
 * and errors-file lengths at that moment. It is written only after both files are synced, to a
 * temporary file then renamed over the old one, so a crash at any instant leaves either the old
 * or the new checkpoint — each consistent with a prefix of the output.
 *
 * Resuming truncates both files to the recorded lengths and skips that many input records: the
 * records an interrupted run wrote after its last checkpoint are written again, exactly once.
 */
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { z } from 'zod';
import { UsageError } from './options.js';

export const CheckpointSchema = z.object({
  version: z.literal(1),
  /** What must match for a resume to continue the same run. */
  run: z.object({
    inputs: z.array(z.string()),
    from: z.string().optional(),
    format: z.string(),
    allPages: z.boolean(),
  }),
  records: z.number().int().nonnegative(),
  outputBytes: z.number().int().nonnegative(),
  errorsBytes: z.number().int().nonnegative(),
  chunks: z.number().int().nonnegative(),
  counts: z.object({
    converted: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    skipped: z.number().int().nonnegative(),
  }),
});
export type Checkpoint = z.infer<typeof CheckpointSchema>;
export type RunIdentity = Checkpoint['run'];

export function checkpointPath(output: string): string {
  return `${output}.checkpoint.json`;
}

export async function readCheckpoint(path: string): Promise<Checkpoint | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`checkpoint ${path} is not valid JSON; delete it and run without --resume`);
  }
  const parsed = CheckpointSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`checkpoint ${path}: field "${issue.path.join('.')}": ${issue.message}; delete it and run without --resume`);
  }
  return parsed.data;
}

export async function writeCheckpoint(path: string, checkpoint: Checkpoint): Promise<void> {
  const temporary = `${path}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(`${JSON.stringify(checkpoint)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
}

export async function removeCheckpoint(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
  await unlink(`${path}.tmp`).catch(() => undefined);
}

/** Why a checkpoint cannot continue this run, or undefined when it can. */
export function mismatch(saved: RunIdentity, current: RunIdentity): string | undefined {
  if (JSON.stringify(saved.inputs) !== JSON.stringify(current.inputs)) return 'the inputs differ';
  if (saved.format !== current.format) return `the output format differs (${saved.format} then, ${current.format} now)`;
  if ((saved.from ?? '') !== (current.from ?? '')) return 'the --from option differs';
  if (saved.allPages !== current.allPages) return 'the --all-pages option differs';
  return undefined;
}
