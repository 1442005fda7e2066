/**
 * `wikistruct convert <input>... -o <output>`: the command-line face of src/batch/convert.ts.
 * Parses flags (node:util parseArgs, strict), turns them into a validated run, wires Ctrl-C to a
 * clean stop with a checkpoint, and returns the exit code: 0 all converted, 1 some record failed,
 * 2 bad usage, 130 interrupted.
 */
import { parseArgs } from 'node:util';
import type { ConvertRun } from '../batch/options.js';
import { OUTPUT_FORMATS, OutputFormatSchema, UsageError } from '../batch/options.js';
import { INPUT_KINDS, InputKindSchema } from '../batch/sources/detect.js';
import { defaultJobs } from '../batch/pool.js';
import { QUEUE_FLAG_OPTIONS, QUEUE_HELP, queueSettings } from '../batch/queue/flags.js';
import type { QueueConvertRun } from '../batch/queue/coordinator.js';

const HELP = `usage: wikistruct convert <input>... -o <output> [options]

Converts articles to Article JSON. Inputs (detected from content and name, or forced with --from):
  *.html, directories of .html/.json files (recursively), envelope .json files,
  NDJSON envelopes (.ndjson, .jsonl, optionally .gz), snapshot archives (.tar.gz of NDJSON),
  MediaWiki XML dumps (.xml, .xml.gz, .xml.bz2; article namespace only, redirects skipped).

Output (-o), by name unless --format says otherwise:
  DIR, DIR/           one <name>.json per record (<input basename>.json for single-file inputs)
  FILE.json           one Article: one input file holding one article (several inputs, a
                      directory, or a second Article in the input are bad usage; nothing is written)
  FILE.ndjson[.gz]    one Article per line (gzip by name)
  FILE.tar.gz         a snapshot: tar.gz of NDJSON chunk files (--format snapshot)
  -                   NDJSON on stdout (with --pretty: indented Articles, each followed by a newline)

Inputs are checked before anything is written: a path that does not exist is bad usage (exit 2).

Options:
  -o, --output PATH            where to write (required)
      --format FORMAT          ${OUTPUT_FORMATS.join(' | ')} (json: FILE.json is one file, any other name a directory)
      --pretty                 indent Articles by 2 spaces: .json outputs and -o - (not NDJSON files
                               or snapshots, which hold one Article per line)
      --from KIND              ${INPUT_KINDS.join(' | ')} (default: detect per file)
  -j, --jobs N                 worker threads (default: ${defaultJobs()}, the available cores)
      --resume                 continue an interrupted run from <output>.checkpoint.json
      --errors FILE            failed records as NDJSON (default <output>.errors.ndjson;
                               with -o - and no --errors, failures go to stderr only)
      --all-pages              XML dumps: keep other namespaces and redirects
  -q, --quiet                  no progress display (the summary line is still printed)
      --progress-interval S    seconds between progress lines when stderr is not a terminal (default 10)
      --checkpoint-interval S  seconds between checkpoints (default 2)
      --max-input-bytes N      refuse records larger than N bytes (default 32 MiB)
      --chunk-size N           snapshot chunk file size, e.g. 32M (default 32M)
      --worker-heap MB         heap cap per worker; a record needing more fails alone (default 512)
  -h, --help                   this text
${QUEUE_HELP}
Exit code: 0 all records converted, 1 some record failed (see the errors file), 2 bad usage
(a flag, or an input path that does not exist), 130 interrupted (run the same command with --resume).
`;

export async function run(argv: string[]): Promise<number> {
  let runOptions: ConvertRun | QueueConvertRun;
  try {
    const parsed = parseFlags(argv);
    if (parsed === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    runOptions = parsed;
  } catch (error) {
    process.stderr.write(`wikistruct convert: ${error instanceof Error ? error.message : String(error)}\nRun \`wikistruct convert --help\` for usage.\n`);
    return 2;
  }

  const { convert } = await import('../batch/convert.js');
  const controller = new AbortController();
  const stop = (): void => {
    // A second Ctrl-C falls through to the default handler and kills the process at once.
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    controller.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const io = { writeErr: (text: string) => process.stderr.write(text), isTTY: process.stderr.isTTY === true, signal: controller.signal };
    // --queue: the same run, its shards converted by `wikistruct worker` processes (docs/scale-out.md).
    const result = 'queue' in runOptions ? await (await import('../batch/queue/coordinator.js')).convertOnQueue(runOptions, io) : await convert(runOptions, io);
    return result.exitCode;
  } catch (error) {
    // Usage problems found once the run is set up (output name, checkpoint) exit 2; a fatal
    // error mid-run (disk full, stdout closed) exits 1, like failed records.
    process.stderr.write(`wikistruct convert: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

function parseFlags(argv: string[]): ConvertRun | QueueConvertRun | 'help' {
  let parsed: ReturnType<typeof parseConvertArgs>;
  try {
    parsed = parseConvertArgs(argv);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message.replace(/\. To specify a positional argument.*$/s, '') : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help === true) return 'help';
  if (positionals.length === 0) throw new UsageError('no input given');
  if (values.output === undefined) throw new UsageError('missing -o/--output (a directory, FILE.ndjson, FILE.ndjson.gz, FILE.tar.gz or -)');
  const out: ConvertRun = {
    inputs: positionals,
    output: values.output,
    jobs: values.jobs === undefined ? defaultJobs() : integer('--jobs', values.jobs, 1, 256),
    resume: values.resume === true,
    allPages: values['all-pages'] === true,
    quiet: values.quiet === true,
    pretty: values.pretty === true,
    // A mistyped input path is bad usage, refused before any output exists (not a failed record).
    requireInputs: true,
  };
  if (values.format !== undefined) out.format = choice('--format', values.format, OutputFormatSchema.options, (v) => OutputFormatSchema.parse(v));
  if (values.from !== undefined) out.from = choice('--from', values.from, InputKindSchema.options, (v) => InputKindSchema.parse(v));
  if (values.errors !== undefined) out.errors = values.errors;
  if (values['progress-interval'] !== undefined) out.progressIntervalMs = Math.round(seconds('--progress-interval', values['progress-interval'], 0.001) * 1000);
  if (values['checkpoint-interval'] !== undefined) out.checkpointIntervalMs = Math.round(seconds('--checkpoint-interval', values['checkpoint-interval'], 0) * 1000);
  if (values['max-input-bytes'] !== undefined) out.maxInputBytes = size('--max-input-bytes', values['max-input-bytes']);
  if (values['chunk-size'] !== undefined) out.chunkBytes = size('--chunk-size', values['chunk-size']);
  if (values['worker-heap'] !== undefined) out.workerHeapMb = integer('--worker-heap', values['worker-heap'], 8, 65536);
  const queue = queueSettings(values);
  return queue === undefined ? out : { ...out, queue };
}

function parseConvertArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      output: { type: 'string', short: 'o' },
      format: { type: 'string' },
      from: { type: 'string' },
      jobs: { type: 'string', short: 'j' },
      resume: { type: 'boolean' },
      errors: { type: 'string' },
      'all-pages': { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
      pretty: { type: 'boolean' },
      'progress-interval': { type: 'string' },
      'checkpoint-interval': { type: 'string' },
      'max-input-bytes': { type: 'string' },
      'chunk-size': { type: 'string' },
      'worker-heap': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      ...QUEUE_FLAG_OPTIONS,
    },
  });
}

function choice<T>(flag: string, value: string, allowed: readonly string[], parse: (v: string) => T): T {
  if (!allowed.includes(value)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}; got "${value}"`);
  return parse(value);
}

function integer(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} takes a whole number; got "${value}"`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`${flag} must be between ${min} and ${max}; got ${n}`);
  return n;
}

function seconds(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min) throw new UsageError(`${flag} takes a number of seconds${min > 0 ? ' above 0' : ''}; got "${value}"`);
  return n;
}

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

function size(flag: string, value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(value.trim());
  if (match === null) throw new UsageError(`${flag} takes a size in bytes, e.g. 1048576 or 32M; got "${value}"`);
  const n = Math.round(Number(match[1]) * UNITS[match[2]!.toLowerCase()]!);
  if (n < 1) throw new UsageError(`${flag} must be at least 1 byte; got "${value}"`);
  return n;
}
