/**
 * The fuzzer's core: measure the engine's throughput on unmutated pages, then run mutated inputs
 * (a fixed number, or until told to stop) and report each offender once per kind of failure.
 *
 * Offenders: `untyped` (an exception that is not a WikistructError), `schema` (an Article that
 * fails ArticleSchema), `crash` (the worker died), and the merely slow: `slow` (over `factor` times
 * the time the baseline throughput predicts for its size, and over `floorMs`; or, for a generated
 * shape, over `GROWTH` times the time of the same shape a quarter its size: superlinear) and
 * `timeout`.
 */
import type { Executor } from './executor.js';
import type { Outcome } from './examine.js';
import type { FuzzInput, InputLimits, Target } from './inputs.js';
import { DEFAULT_LIMITS, InputMaker } from './inputs.js';
import type { SeedPool } from './seeds.js';

export type FindingKind = 'untyped' | 'schema' | 'crash' | 'slow' | 'timeout';

/** The kinds that break the engine's contract; a run with any of them fails. */
export const FAILURES: readonly FindingKind[] = ['untyped', 'schema', 'crash'];

export interface Finding {
  kind: FindingKind;
  input: FuzzInput;
  outcome: Outcome;
  /** Groups findings with the same cause: error and top engine frame, schema path, or mutations. */
  signature: string;
  /** How many findings with this signature so far, this one included. */
  occurrence: number;
  /** For slow inputs: what the baseline throughput predicts for this size. */
  expectedMs?: number;
}

export interface SlowRule {
  /** Slow when over this many times the predicted time… */
  factor: number;
  /** …and over this many milliseconds (small inputs are dominated by fixed costs). */
  floorMs: number;
}

export interface FuzzOptions {
  seed: number;
  pool: SeedPool;
  executor: Executor;
  limits?: InputLimits;
  /** Run exactly this many mutated inputs (the test suite)… */
  iterations?: number;
  /** …or until this returns true (the command's time box). */
  shouldStop?: () => boolean;
  /** First input index; with `iterations: 1`, replays one input of a run. */
  from?: number;
  slow?: SlowRule;
  /** Unmutated pages per dialect timed for the baseline; 0 disables slow detection. */
  baselineSamples?: number;
  onFinding?: (finding: Finding) => void | Promise<void>;
  onInput?: (stats: Stats) => void;
}

export interface Stats {
  inputs: number;
  chars: number;
  byTarget: Record<Target, number>;
  outcomes: Record<Outcome['kind'], number>;
  typedCodes: Record<string, number>;
  findings: Record<FindingKind, number>;
  signatures: Map<string, { kind: FindingKind; count: number; firstIndex: number }>;
  /** Characters per millisecond of unmutated pages, per dialect. */
  baseline: { html?: number; wikitext?: number };
}

export const DEFAULT_SLOW: SlowRule = { factor: 10, floorMs: 250 };

/**
 * A shape 4× larger may cost this many times more: linear is 4, quadratic 16. The CPU-ratio tests
 * (test/engine/wide.test.ts, test/wikitext/nesting.test.ts) hold 8 at up to 400 KB; here documents
 * reach 2 MB, where garbage collection alone (more live memory, costlier major collections) takes a
 * linear document to 8–10.5× (measured on sections, infobox rows, nested <div>), and the times are
 * wall-clock times on a shared machine.
 */
export const GROWTH = 12;

export async function fuzz(options: FuzzOptions): Promise<Stats> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const slow = options.slow ?? DEFAULT_SLOW;
  const stats = emptyStats();
  // Twice the slow threshold: an input that times out is slow beyond doubt, however large.
  const budget = (input: FuzzInput): number => {
    const throughput = input.target === 'wikitext' ? stats.baseline.wikitext : stats.baseline.html;
    return throughput === undefined ? 0 : (2 * slow.factor * input.text.length) / throughput;
  };
  /** The faster of two runs of the quarter of a generated shape, ×4: what linear growth predicts for it. */
  const linearPrediction = async (quarter: FuzzInput): Promise<number | undefined> => {
    let best = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 2; run++) {
      const q = await options.executor.run(quarter, budget(quarter));
      if (q.kind !== 'ok' && q.kind !== 'typed') return undefined;
      best = Math.min(best, q.ms);
    }
    return 4 * best;
  };
  /**
   * For a generated shape that took over `floorMs` and over GROWTH / 4 times what its quarter
   * predicts: measured again in a fresh worker (a long-lived one carries the heap of earlier
   * inputs, which made linear shapes look superlinear), the quarter then the input. Returns the
   * prediction and the new outcome when it is still over.
   */
  const superlinear = async (input: FuzzInput, outcome: Outcome): Promise<{ linearMs: number; outcome: Outcome } | undefined> => {
    const timed = (o: Outcome): boolean => (o.kind === 'ok' || o.kind === 'typed') && o.ms > slow.floorMs;
    const { quarter: smaller, ...rest } = input;
    if (smaller === undefined || !timed(outcome)) return undefined;
    const quarter: FuzzInput = { ...rest, text: smaller };
    const suspected = await linearPrediction(quarter);
    if (suspected === undefined || outcome.ms <= (GROWTH / 4) * suspected) return undefined;
    await options.executor.close();
    const linearMs = await linearPrediction(quarter);
    if (linearMs === undefined) return undefined;
    const again = await options.executor.run(input, budget(input));
    return timed(again) && again.ms > (GROWTH / 4) * linearMs ? { linearMs, outcome: again } : undefined;
  };
  const record = async (input: FuzzInput, first: Outcome): Promise<void> => {
    let outcome = first;
    // One run can be slow because the machine is busy (it is shared), a collection ran or a new
    // worker was still compiling: an input is slow only if a second run is too; the faster counts.
    if (expectedTime(input, outcome, stats, slow) !== undefined) {
      const again = await options.executor.run(input, budget(input));
      if (again.kind === outcome.kind && again.ms < outcome.ms) outcome = again;
    }
    const grew = await superlinear(input, outcome);
    if (grew !== undefined) outcome = grew.outcome;
    count(stats, input, outcome);
    const finding = classify(input, outcome, stats, slow, grew?.linearMs);
    if (finding !== undefined) await options.onFinding?.(finding);
    options.onInput?.(stats);
  };

  for (const dialect of ['html', 'wikitext'] as const) {
    let chars = 0;
    let ms = 0;
    const samples = baselineInputs(options.pool, dialect, options.baselineSamples ?? 6, limits);
    // The first run of a path pays for compiling it; warm up on one page and leave it out.
    if (samples[0] !== undefined) await options.executor.run(samples[0]);
    for (const input of samples) {
      const outcome = await options.executor.run(input);
      await record(input, outcome);
      chars += input.text.length;
      ms += outcome.ms;
    }
    if (ms > 0) stats.baseline[dialect] = chars / ms;
  }

  const maker = new InputMaker(options.pool, limits);
  const from = options.from ?? 0;
  for (let index = from; ; index++) {
    if (options.iterations !== undefined && index - from >= options.iterations) break;
    if (options.shouldStop?.() === true) break;
    const input = maker.make(options.seed, index);
    await record(input, await options.executor.run(input, budget(input)));
  }
  return stats;
}

function emptyStats(): Stats {
  return {
    inputs: 0,
    chars: 0,
    byTarget: { html: 0, envelope: 0, wikitext: 0 },
    outcomes: { ok: 0, typed: 0, untyped: 0, schema: 0, timeout: 0, crash: 0 },
    typedCodes: {},
    findings: { untyped: 0, schema: 0, crash: 0, slow: 0, timeout: 0 },
    signatures: new Map(),
    baseline: {},
  };
}

function count(stats: Stats, input: FuzzInput, outcome: Outcome): void {
  stats.inputs++;
  stats.chars += input.text.length;
  stats.byTarget[input.target]++;
  stats.outcomes[outcome.kind]++;
  if (outcome.kind === 'typed') stats.typedCodes[outcome.code] = (stats.typedCodes[outcome.code] ?? 0) + 1;
}

/** Unmutated pages spread over the pool's sizes up to the median: typical, not the extremes. */
function baselineInputs(pool: SeedPool, dialect: 'html' | 'wikitext', samples: number, limits: InputLimits): FuzzInput[] {
  const cap = dialect === 'html' ? limits.maxHtmlChars : limits.maxWikitextChars;
  const pages = (dialect === 'html' ? pool.html : pool.wikitext).map((text) => text.slice(0, cap)).sort((a, b) => a.length - b.length);
  const typical = pages.slice(0, Math.ceil(pages.length / 2));
  const picked = new Set<number>();
  for (let i = 0; i < Math.min(samples, typical.length); i++) picked.add(Math.floor((i * typical.length) / samples));
  return [...picked].map((i, k) => ({ index: -1 - k, target: dialect, text: typical[i]!, recipe: [`baseline: unmutated ${dialect} page, ${typical[i]!.length} chars`] }));
}

/** `linearMs`: set when a generated shape grew superlinearly, what linear growth predicts for it. */
function classify(input: FuzzInput, outcome: Outcome, stats: Stats, slow: SlowRule, linearMs?: number): Finding | undefined {
  let kind: FindingKind;
  let signature: string;
  let expectedMs: number | undefined;
  switch (outcome.kind) {
    case 'ok':
    case 'typed': {
      expectedMs = expectedTime(input, outcome, stats, slow);
      if (expectedMs !== undefined) signature = `slow ${input.target}: ${mutationsOf(input)}`;
      else if (linearMs !== undefined) {
        expectedMs = linearMs;
        signature = `superlinear ${input.target}: ${mutationsOf(input)}`;
      } else return undefined;
      kind = 'slow';
      break;
    }
    case 'untyped':
      kind = 'untyped';
      signature = `${outcome.error.name}: ${generic(outcome.error.message).slice(0, 120)} at ${engineFrame(outcome.error.stack)}`;
      break;
    case 'schema':
      kind = 'schema';
      signature = `schema: ${generic(outcome.issues[0] ?? '')}`;
      break;
    case 'timeout':
      kind = 'timeout';
      signature = `timeout ${input.target}: ${mutationsOf(input)}`;
      break;
    case 'crash':
      kind = 'crash';
      signature = `crash: ${generic(outcome.message)}`;
      break;
  }
  stats.findings[kind]++;
  const seen = stats.signatures.get(signature) ?? { kind, count: 0, firstIndex: input.index };
  seen.count++;
  stats.signatures.set(signature, seen);
  const finding: Finding = { kind, input, outcome, signature, occurrence: seen.count };
  if (expectedMs !== undefined) finding.expectedMs = expectedMs;
  return finding;
}

/** What the baseline predicts for a slow input's size; undefined when the input is not slow. */
function expectedTime(input: FuzzInput, outcome: Outcome, stats: Stats, slow: SlowRule): number | undefined {
  if (outcome.kind !== 'ok' && outcome.kind !== 'typed') return undefined;
  const throughput = input.target === 'wikitext' ? stats.baseline.wikitext : stats.baseline.html;
  if (throughput === undefined || input.index < 0) return undefined;
  const expectedMs = input.text.length / throughput;
  return outcome.ms > slow.floorMs && outcome.ms > slow.factor * expectedMs ? expectedMs : undefined;
}

function generic(text: string): string {
  return text.replace(/\d+/g, 'N');
}

function mutationsOf(input: FuzzInput): string {
  return [...new Set(input.recipe.slice(1).map(generic))].sort().join(', ') || 'unmutated';
}

/** The first stack frame inside the engine, e.g. "src/engine/transclusion.ts:41", else the first frame. */
function engineFrame(stack: string): string {
  const frames = stack.split('\n').slice(1);
  const own = frames.find((f) => f.includes('/src/') && !f.includes('node_modules')) ?? frames[0] ?? '';
  const at = /((?:src|node_modules)\/[^\s():]+):(\d+)/.exec(own);
  return at === null ? own.trim() : `${at[1]}:${at[2]}`;
}
