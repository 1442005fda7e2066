/**
 * `wikistruct convert <input>... -o <output>`: the command-line face of src/batch/convert.ts.
 * Parses flags (node:util parseArgs, strict), turns them into a validated run, wires Ctrl-C to a
 * clean stop with a checkpoint, and returns the exit code: 0 all converted, 1 some record failed,
 * 2 bad usage, 130 interrupted.
 */
import { parseArgs } from 'node:util';
import type { ConvertRun } from '../batch/options.js';
import { OUTPUT_FORMATS, OutputFormatSchema, UsageError } from '../batch/options.js';
import { INPUT_KINDS, InputKindSchema } from '../io/sources/detect.js';
import { defaultJobs, WORKER_HEAP_MB, WORKER_YOUNG_MB } from '../workers/pool.js';
import { byteSize, choice, seconds, wholeNumber } from './flags.js';
import { QUEUE_FLAG_OPTIONS, QUEUE_HELP, queueSettings } from './queue-flags.js';
import { onInterrupt, readFlags } from './run.js';
import type { QueueConvertRun } from '../batch/queue/coordinator.js';

const HELP = `usage: wikistruct convert <input>... -o <output> [options]

Converts articles to Article JSON. Inputs (detected from content and name, or forced with --from):
  *.html, envelope .json files, NDJSON envelopes (.ndjson, .jsonl, optionally .gz), snapshot
  archives (.tar.gz of NDJSON), MediaWiki XML dumps (.xml, .xml.gz, .xml.bz2; article namespace
  only, redirects skipped), one page of wikitext per .wikitext file (titled after the file:
  Ada_Lovelace.wikitext is "Ada Lovelace"; the wiki from --siteinfo), and directories of them
  (recursively, sorted; dot directories skipped).

Symbolic links are followed, to files and to directories (dataset caches such as Hugging Face's
or git-annex's are folders of links); a file reached through several paths is read once. A
dangling link, a link loop, an empty input or directory, and an input cut short (a dump ending
inside a <page> or without </mediawiki>, a cut .gz/.bz2/.tar.gz, an NDJSON last line cut inside
its JSON) are each one failed input, named on stderr and in the errors file (exit 1).

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
      --siteinfo FILE          the wiki of wikitext records: a dump's <siteinfo> block or MediaWiki
                               API siteinfo XML (an XML dump's own <siteinfo> wins for its pages)
  -q, --quiet                  no progress display (the summary line is still printed)
      --progress-interval S    seconds between progress lines when stderr is not a terminal (default 10)
      --checkpoint-interval S  seconds between checkpoints (default 2)
      --max-input-bytes N      refuse records larger than N bytes (default 32 MiB)
      --chunk-size N           snapshot chunk file size, e.g. 32M (default 32M)
      --worker-heap MB         heap cap per worker; a record needing more fails alone (default 512)
      --worker-young MB        young generation per worker (default 48); 96 adds about 110 MB to the
                               peak of --jobs 2 and saves no CPU time since the parse tree left the
                               JavaScript heap; 24 takes 60 MB off it for about 15% more CPU time;
                               V8 rounds up to 24, 48, 96, 192…
  -h, --help                   this text
${QUEUE_HELP}
Exit code: 0 all records converted, 1 some record or input failed (see the errors file), 2 bad
usage (a flag, or an input path that does not exist), 130 interrupted (run the same command with
--resume).
`;

export async function run(argv: string[]): Promise<number> {
  const runOptions = readFlags('convert', HELP, () => parseFlags(argv));
  if (typeof runOptions === 'number') return runOptions;

  const { convert } = await import('../batch/convert.js');
  const interrupt = onInterrupt();
  try {
    const io = { writeErr: (text: string) => process.stderr.write(text), isTTY: process.stderr.isTTY === true, signal: interrupt.signal };
    // --queue: the same run, its shards converted by `wikistruct worker` processes (docs/scale-out.md).
    const result = 'queue' in runOptions ? await (await import('../batch/queue/coordinator.js')).convertOnQueue(runOptions, io) : await convert(runOptions, io);
    return result.exitCode;
  } catch (error) {
    // Usage problems found once the run is set up (output name, checkpoint) exit 2; a fatal
    // error mid-run (disk full, stdout closed) exits 1, like failed records.
    process.stderr.write(`wikistruct convert: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    interrupt.dispose();
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
    jobs: values.jobs === undefined ? defaultJobs() : wholeNumber('--jobs', values.jobs, 1, 256),
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
  if (values.siteinfo !== undefined) out.siteinfo = values.siteinfo;
  if (values['progress-interval'] !== undefined) out.progressIntervalMs = Math.round(seconds('--progress-interval', values['progress-interval'], 0.001) * 1000);
  if (values['checkpoint-interval'] !== undefined) out.checkpointIntervalMs = Math.round(seconds('--checkpoint-interval', values['checkpoint-interval'], 0) * 1000);
  if (values['max-input-bytes'] !== undefined) out.maxInputBytes = byteSize('--max-input-bytes', values['max-input-bytes'], '32M');
  if (values['chunk-size'] !== undefined) out.chunkBytes = byteSize('--chunk-size', values['chunk-size'], '32M');
  if (values['worker-heap'] !== undefined) out.workerHeapMb = wholeNumber('--worker-heap', values['worker-heap'], WORKER_HEAP_MB.min, WORKER_HEAP_MB.max);
  if (values['worker-young'] !== undefined) out.workerYoungMb = wholeNumber('--worker-young', values['worker-young'], WORKER_YOUNG_MB.min, WORKER_YOUNG_MB.max);
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
      siteinfo: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
      pretty: { type: 'boolean' },
      'progress-interval': { type: 'string' },
      'checkpoint-interval': { type: 'string' },
      'max-input-bytes': { type: 'string' },
      'chunk-size': { type: 'string' },
      'worker-heap': { type: 'string' },
      'worker-young': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      ...QUEUE_FLAG_OPTIONS,
    },
  });
}
