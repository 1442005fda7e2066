/**
 * `convert`'s workers take the smaller young generation on a small machine (issue 26: the peak a
 * 512 MB or 1 GB machine can afford), the faster one elsewhere; src/workers/pool.ts.
 */
import { describe, expect, it } from 'vitest';
import { BATCH_YOUNG_GENERATION_MB, SMALL_MACHINE_BYTES, SMALL_MACHINE_YOUNG_GENERATION_MB, batchYoungGenerationMb } from '../../src/workers/pool.js';

const GiB = 1024 ** 3;

describe('the young generation of convert\'s workers', () => {
  it('is the smaller one up to the small-machine size, the faster one above it', () => {
    expect(SMALL_MACHINE_YOUNG_GENERATION_MB).toBeLessThan(BATCH_YOUNG_GENERATION_MB);
    expect(batchYoungGenerationMb(512 * 1024 ** 2)).toBe(SMALL_MACHINE_YOUNG_GENERATION_MB);
    expect(batchYoungGenerationMb(SMALL_MACHINE_BYTES)).toBe(SMALL_MACHINE_YOUNG_GENERATION_MB);
    expect(batchYoungGenerationMb(SMALL_MACHINE_BYTES + 1)).toBe(BATCH_YOUNG_GENERATION_MB);
    expect(batchYoungGenerationMb(24 * GiB)).toBe(BATCH_YOUNG_GENERATION_MB);
  });
});
