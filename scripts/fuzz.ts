/**
 * `npm run fuzz`: mutates real pages (or generated ones), and builds documents of extreme shape
 * (wide, deep, long: scripts/fuzz/shapes.ts), and feeds them to parse() and parseWikitext(),
 * looking for what breaks the engine's contract — an exception that is not one of its typed
 * errors, an Article that fails ArticleSchema, a worker out of memory — and for inputs that are
 * slow for their size or whose time grows faster than it. Offenders are saved with a note and a
 * command that reproduces them.
 *
 *   npm run fuzz [-- --seconds 60] [--seed S] [--out fuzz-findings] [--generated]
 *   npm run fuzz -- --seed S --index I       one input of a run again (same corpus)
 *   npm run fuzz -- --replay FILE             a saved input again, with its stack trace
 *
 * Exits 1 when an untyped throw, a schema failure or a worker crash was found; slow inputs are
 * reported only.
 */
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { examine } from './fuzz/examine.js';
import { WorkerExecutor } from './fuzz/executor.js';
import { FindingsDir, targetOfFile } from './fuzz/findings.js';
import { DEFAULT_LIMITS } from './fuzz/inputs.js';
import type { Finding, Stats } from './fuzz/run.js';
import { DEFAULT_SLOW, FAILURES, fuzz } from './fuzz/run.js';
import { corpusPool, generatedPool } from './fuzz/seeds.js';

const HELP = `usage: npm run fuzz -- [options]
  --seconds N            time box (default 60)
  --seed S               integer seed; printed at start so that a run can be replayed (default: random)
  --index I              run only input I of --seed S (needs the same corpus)
  --replay FILE          run one saved input (.html, .envelope.json, .wikitext) and print what happens
  --out DIR              where offenders are saved (default fuzz-findings)
  --corpus DIR           corpus to mutate (default $WIKISTRUCT_CORPUS or ../shared/corpus)
  --generated            mutate generated documents even when the corpus is present
  --timeout-ms N         per-input time bound; the worker is replaced after it (default 10000)
  --slow-factor N        slow = over N × the time the baseline throughput predicts (default ${DEFAULT_SLOW.factor})
  --slow-floor-ms N      … and over N ms (default ${DEFAULT_SLOW.floorMs})
  --wikitext-max-chars N cap on wikitext inputs (default ${DEFAULT_LIMITS.maxWikitextChars})
  --keep N               offenders saved per signature (default 3)`;

function usage(message: string): never {
  console.error(`fuzz: ${message}\n${HELP}`);
  process.exit(2);
}

function parseCommandLine() {
  try {
    return parseArgs({
      options: {
        seconds: { type: 'string', default: '60' },
        seed: { type: 'string' },
        index: { type: 'string' },
        replay: { type: 'string' },
        out: { type: 'string', default: 'fuzz-findings' },
        corpus: { type: 'string' },
        generated: { type: 'boolean', default: false },
        'timeout-ms': { type: 'string', default: '10000' },
        'slow-factor': { type: 'string', default: String(DEFAULT_SLOW.factor) },
        'slow-floor-ms': { type: 'string', default: String(DEFAULT_SLOW.floorMs) },
        'wikitext-max-chars': { type: 'string', default: String(DEFAULT_LIMITS.maxWikitextChars) },
        keep: { type: 'string', default: '3' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    return usage((error as Error).message);
  }
}

function integer(name: string, raw: string | undefined, min: number): number {
  const n = Number(raw);
  if (raw === undefined || raw.trim() === '' || !Number.isSafeInteger(n) || n < min) usage(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

function replay(path: string): never {
  const target = targetOfFile(path) ?? usage(`--replay: cannot tell the input kind of ${path} (expected .html, .envelope.json or .wikitext)`);
  const text = readFileSync(path, 'utf8');
  const outcome = examine(target, text);
  // The first run includes compiling the engine; two more show the warm time of a slow input.
  const warmMs = [examine(target, text).ms, examine(target, text).ms].map(Math.round);
  console.log(JSON.stringify({ ...outcome, warmMs }, null, 2));
  if (outcome.kind === 'untyped') console.error(outcome.error.stack);
  process.exit(outcome.kind === 'untyped' || outcome.kind === 'schema' ? 1 : 0);
}

function summary(stats: Stats, seconds: number, out: string): string {
  const kinds = Object.entries(stats.outcomes).map(([k, n]) => `${k} ${n}`).join(', ');
  const codes = Object.entries(stats.typedCodes).map(([k, n]) => `${k} ${n}`).join(', ');
  const lines = [
    `fuzz: ${stats.inputs} inputs in ${seconds.toFixed(1)} s (${(stats.inputs / seconds).toFixed(1)}/s; ` +
      `html ${stats.byTarget.html}, envelope ${stats.byTarget.envelope}, wikitext ${stats.byTarget.wikitext}; ${(stats.chars / 1e6).toFixed(1)} M chars)`,
    `  outcomes: ${kinds}${codes === '' ? '' : ` (typed: ${codes})`}`,
    `  offenders: ${Object.entries(stats.findings).map(([k, n]) => `${k} ${n}`).join(', ')}${stats.signatures.size > 0 ? ` → ${out}/` : ''}`,
  ];
  for (const [signature, s] of [...stats.signatures].sort((a, b) => b[1].count - a[1].count)) {
    lines.push(`    ${s.count}× ${signature} (first: index ${s.firstIndex})`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const args = parseCommandLine();
  if (args.help) {
    console.log(HELP);
    return;
  }
  if (args.replay !== undefined) replay(args.replay);
  const seconds = integer('seconds', args.seconds, 1);
  const seed = args.seed === undefined ? randomInt(2 ** 31) : integer('seed', args.seed, 0);
  const index = args.index === undefined ? undefined : integer('index', args.index, 0);
  if (index !== undefined && args.seed === undefined) usage('--index needs the --seed of the run');
  const timeoutMs = integer('timeout-ms', args['timeout-ms'], 1);
  const slow = { factor: integer('slow-factor', args['slow-factor'], 1), floorMs: integer('slow-floor-ms', args['slow-floor-ms'], 0) };
  const limits = { ...DEFAULT_LIMITS, maxWikitextChars: integer('wikitext-max-chars', args['wikitext-max-chars'], 1) };
  const pool = (args.generated ? undefined : corpusPool(args.corpus)) ?? generatedPool(seed);
  const findings = new FindingsDir(args.out, seed, integer('keep', args.keep, 0));

  const again = index === undefined ? `replay: npm run fuzz -- --seed ${seed} --seconds ${seconds}${args.generated ? ' --generated' : ''}` : `input ${index} only`;
  console.log(`fuzz: seed ${seed} (${again}); pages: ${pool.origin} (${pool.html.length} html, ${pool.wikitext.length} wikitext)`);
  const started = Date.now();
  const deadline = started + seconds * 1000;
  let interrupted = false;
  process.once('SIGINT', () => {
    interrupted = true;
  });
  let lastProgress = started;
  const executor = new WorkerExecutor(timeoutMs);
  const onFinding = (finding: Finding): void => {
    const saved = findings.save(finding);
    if (finding.occurrence === 1) console.log(`fuzz: ${finding.kind} at index ${finding.input.index}: ${finding.signature}${saved === undefined ? '' : ` → ${saved}`}`);
  };
  const stats = await fuzz({
    seed,
    pool,
    executor,
    limits,
    slow,
    onFinding,
    ...(index === undefined ? { shouldStop: () => interrupted || Date.now() >= deadline } : { from: index, iterations: 1, baselineSamples: 0 }),
    onInput: (s) => {
      if (Date.now() - lastProgress < 10_000) return;
      lastProgress = Date.now();
      const secs = (lastProgress - started) / 1000;
      console.error(`fuzz: ${s.inputs} inputs, ${(s.inputs / secs).toFixed(1)}/s, offenders ${Object.entries(s.findings).map(([k, n]) => `${k} ${n}`).join(' ')}`);
    },
  });
  await executor.close();
  const baseline = Object.entries(stats.baseline).map(([d, cpm]) => `${d} ${Math.round(cpm)} k chars/s`);
  console.log(`fuzz: baseline throughput of unmutated pages: ${baseline.join(', ') || 'not measured'}`);
  console.log(summary(stats, (Date.now() - started) / 1000, args.out));
  process.exitCode = FAILURES.some((kind) => stats.findings[kind] > 0) ? 1 : 0;
}

await main();
