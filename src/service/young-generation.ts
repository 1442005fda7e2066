/**
 * The main thread's young generation while `wikistruct serve` starts (issue 26: idle memory).
 *
 * V8 starts the young generation with 1 MB semi-spaces and doubles them whenever much of it
 * survives a scavenge. A start is almost nothing but survivors (the modules, the grammar, the
 * database client, the routes), so by the time the server listens the semi-spaces have grown to
 * V8's maximum, 16 MB each: 32 MB resident, 3-9 MB of it in use, and V8 shrinks them only after a
 * scavenge at a low allocation rate, which an idle server never runs. Measured with the built CLI
 * (bench/memory.ts, two rounds each, load average 21-23), a later start was idle at 170-171 MB
 * instead of 197-199 MB, a first start with --no-samples at 176-178 instead of 222-224 MB, for no
 * more CPU to ready.
 *
 * So the growth is held while the server starts and until its first request (its background
 * work meanwhile, the snapshots a first start builds, runs with the small one): requests grow the
 * young generation as they did before, and the served path runs with the young generation it
 * had. The flag is process-wide and read by V8 at each growth; 2 is V8's default
 * (node --v8-options).
 */
import { setFlagsFromString } from 'node:v8';

const V8_DEFAULT_GROWTH = 2;

/** From now on, the young generation keeps the size it has (V8's initial 1 MB semi-spaces, at a start). */
export function holdYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

let released = false;

/**
 * The young generation grows again as V8 decides: a fastify onRequest hook whose first call does
 * it (callback-style, the cheapest kind of hook: it runs on every request).
 */
export function releaseYoungGenerationOnce(_request: unknown, _reply: unknown, done: () => void): void {
  if (!released) {
    released = true;
    setFlagsFromString(`--semi-space-growth-factor=${V8_DEFAULT_GROWTH}`);
  }
  done();
}
