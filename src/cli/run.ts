/**
 * The frame of the long-running commands (`convert`, `worker`): flags read once, with bad usage
 * reported the same way (exit code 2), and Ctrl-C turned into a clean stop; and the flags of the
 * commands that work on the database.
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import type { ParseArgsOptionsConfig } from 'node:util';
import { z } from 'zod';

/** The parsed flags, or the exit code when there is nothing to run (help shown, bad usage reported). */
export function readFlags<T>(command: string, help: string, parse: () => T | 'help'): T | number {
  try {
    const parsed = parse();
    if (parsed !== 'help') return parsed;
    process.stdout.write(help);
    return 0;
  } catch (error) {
    process.stderr.write(`wikistruct ${command}: ${error instanceof Error ? error.message : String(error)}\nRun \`wikistruct ${command} --help\` for usage.\n`);
    return 2;
  }
}

export interface Interrupt {
  /** Aborted by the first Ctrl-C (or SIGTERM): the run stops cleanly (a checkpoint, shards finished). */
  signal: AbortSignal;
  /** Gives the signals back to Node's default handlers. */
  dispose(): void;
}

export function onInterrupt(): Interrupt {
  const controller = new AbortController();
  const dispose = (): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
  const stop = (): void => {
    // A second Ctrl-C falls through to the default handler and kills the process at once.
    dispose();
    controller.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return { signal: controller.signal, dispose };
}

/**
 * The flags of the database commands (`import`, `snapshot`) and of `serve`: node:util parseArgs,
 * then the values checked by `schema`. Either problem is reported as bad usage, and the exit code
 * (2) returned. A command without operands (`serve`) passes `allowPositionals: false`, so that a
 * stray argument is bad usage too.
 */
export function readOptions<T>(
  command: string,
  help: string,
  argv: string[],
  options: ParseArgsOptionsConfig,
  schema: z.ZodType<T>,
  { allowPositionals = true }: { allowPositionals?: boolean } = {},
): { values: T; positionals: string[] } | number {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals, options });
  } catch (error) {
    process.stderr.write(`wikistruct ${command}: ${(error as Error).message}\n\n${help}`);
    return 2;
  }
  const values = schema.safeParse(parsed.values);
  if (!values.success) {
    process.stderr.write(`wikistruct ${command}: ${values.error.issues[0]?.message ?? 'invalid options'}\n`);
    return 2;
  }
  return { values: values.data, positionals: parsed.positionals };
}

/** A project code as the database commands take it: a database name like "enwiki". */
export const PROJECT_CODE = /^[a-z][a-z0-9_]*$/;

/** `--jobs` of the database commands: parser threads, within the admin commands' bound (1–64). */
export const JobsOptionSchema = z.coerce
  .number({ error: '--jobs takes a whole number' })
  .int('--jobs must be an integer')
  .min(1, '--jobs must be at least 1')
  .max(64, '--jobs must be at most 64')
  .optional();

/** The database commands' default `--jobs`: every core but one, left to the database (at least 1). */
export function defaultParserJobs(): number {
  return Math.max(1, availableParallelism() - 1);
}
