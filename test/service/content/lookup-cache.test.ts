/**
 * The title lookup cache on its own, with a manual clock and a load we control: the window, the
 * invalidation, and a read that races an invalidation.
 */
import { describe, expect, test } from 'vitest';
import { LookupCache } from '../../../src/service/content/lookup-cache.js';
import type { StoredRow } from '../../../src/service/content/store.js';
import { ManualClock } from '../helpers/harness.js';

const row = (revision: number): StoredRow => ({ project: 'enwiki', title: 'T', revision, language: 'en' });

function setup(maxAgeMs = 2000) {
  const clock = new ManualClock();
  let revision = 1;
  const loads: string[] = [];
  let gate: Promise<void> | undefined;
  const cache = new LookupCache({
    clock,
    maxAgeMs,
    load: async (title) => {
      loads.push(title);
      const seen = revision; // what the database says when the query runs
      await gate;
      return [row(seen)];
    },
  });
  return { clock, cache, loads, setRevision: (r: number) => (revision = r), hold: (p: Promise<void> | undefined) => (gate = p) };
}

describe('LookupCache', () => {
  test('reused within the window, read again at its end or after invalidate', async () => {
    const { clock, cache, loads, setRevision } = setup();
    expect(await cache.rows('T'), 'first read').toEqual([row(1)]);
    setRevision(2);
    clock.advance(1999);
    expect(await cache.rows('T'), 'within the window: remembered').toEqual([row(1)]);
    clock.advance(1);
    expect(await cache.rows('T'), 'at the window: read again').toEqual([row(2)]);
    setRevision(3);
    cache.invalidate('T');
    expect(await cache.rows('T'), 'after invalidate: read again at once').toEqual([row(3)]);
    expect(loads, 'three reads').toEqual(['T', 'T', 'T']);
  });

  test('concurrent misses share one read; a read that raced an invalidation is not kept, and later callers do not join it', async () => {
    const { cache, loads, setRevision, hold } = setup();
    let open!: () => void;
    hold(new Promise<void>((resolve) => (open = resolve)));
    const early = [cache.rows('T'), cache.rows('T')];
    await Promise.resolve();
    setRevision(2);
    cache.invalidate('T'); // a write commits while the first read is in flight
    hold(undefined);
    const late = cache.rows('T');
    open();
    expect(await Promise.all(early), 'the early callers share the first read').toEqual([[row(1)], [row(1)]]);
    expect(await late, 'a caller after the invalidation reads anew').toEqual([row(2)]);
    expect(loads.length, 'two reads in all').toBe(2);
    expect(await cache.rows('T'), 'what is kept is the read after the write').toEqual([row(2)]);
    expect(loads.length, 'served from the cache').toBe(2);
  });

  test('a clock set back reads again; a window of 0 always reads', async () => {
    const { clock, cache, loads } = setup();
    await cache.rows('T');
    clock.advance(-1);
    await cache.rows('T');
    expect(loads.length, 'clock went back: read again').toBe(2);
    const off = setup(0);
    await off.cache.rows('T');
    await off.cache.rows('T');
    expect([off.loads.length, off.cache.size], 'window 0: every call reads, nothing kept').toEqual([2, 0]);
  });
});
