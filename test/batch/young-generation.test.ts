/**
 * `convert`'s workers take V8's default young generation (16 MB semi-spaces) on every machine
 * (issue 26: convert at 10× with 2 jobs within 350 MB, wherever it runs); src/workers/pool.ts.
 */
import { describe, expect, it } from 'vitest';
import { BATCH_YOUNG_GENERATION_MB } from '../../src/workers/pool.js';

describe('the young generation of convert\'s workers', () => {
  it('is V8\'s default size, 16 MB semi-spaces (a semi-space is a third of it, rounded up to a power of two)', () => {
    const semiSpace = 2 ** Math.ceil(Math.log2(BATCH_YOUNG_GENERATION_MB / 3));
    expect(semiSpace).toBe(16);
  });
});
