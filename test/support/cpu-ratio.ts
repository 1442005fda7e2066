/**
 * How an input's cost grows, as a ratio of CPU times that machine noise hardly moves: the tests
 * that hold the engine linear (nesting, wide documents, the wikitext guard) time an input and one
 * 4× its size; linear is about 4×, quadratic 16×, and they assert under 8.
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection, so that a timed round starts on a clean heap: without it, a round
 * pays for collecting what earlier rounds and earlier tests left (the trees of a 400 KB input),
 * which inflated the large input's time by chance and made the ratio flaky (it once passed 8 for
 * `'<span>a'.repeat(k)`, whose cost is linear: 25 → 100 KB measured 3.3–5×).
 */
const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** Least CPU time (µs) of three runs of `reps` calls: least is what the machine's noise adds least to. */
export function cpuTime(run: () => unknown, reps: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    collectGarbage();
    const start = process.cpuUsage();
    for (let i = 0; i < reps; i++) run();
    const used = process.cpuUsage(start);
    best = Math.min(best, used.user + used.system);
  }
  return best;
}

/**
 * CPU time of `parse(large)` over that of `parse(small)`, each repeated so that the small input
 * runs at least 25 ms (long enough to time at all). `warm` parses the large input once first, so
 * that compiling the code it runs is not timed.
 */
export function cpuRatio<T>(parse: (input: T) => unknown, small: T, large: T, options: { warm?: boolean } = {}): number {
  if (options.warm === true) parse(large);
  const once = cpuTime(() => parse(small), 1);
  const reps = Math.max(1, Math.ceil(25_000 / Math.max(once, 1)));
  return cpuTime(() => parse(large), reps) / cpuTime(() => parse(small), reps);
}
