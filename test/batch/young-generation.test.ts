/**
 * `convert`'s workers take the smaller young generation on a small machine (issue 26: the peak a
 * 512 MB or 1 GB machine can afford), the faster one elsewhere; src/workers/pool.ts.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryLimit } from '../../bench/process-memory.js';
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

/** A real limit, not a number handed in: a cgroup of 512 MB (bench/process-memory.ts), when this machine lets us make one. */
function smallMachine(): MemoryLimit | undefined {
  try {
    return MemoryLimit.create(512);
  } catch {
    return undefined;
  }
}

describe('on a machine whose memory its cgroup limits', () => {
  const limit = smallMachine();
  afterAll(() => limit?.remove());

  // Root with a writable cgroup hierarchy (this machine's and CI's); elsewhere the unit test above stands alone.
  it.skipIf(limit === undefined)('reads its cgroup\'s limit, not the host\'s memory, and takes the small machine\'s young generation', () => {
    const pool = pathToFileURL(join(import.meta.dirname, '../../dist/src/workers/pool.js')).href;
    const script = `import { batchYoungGenerationMb } from ${JSON.stringify(pool)}; console.log(JSON.stringify({ limit: process.constrainedMemory(), young: batchYoungGenerationMb() }));`;
    const [command, args] = limit!.wrap(process.execPath, ['--input-type=module', '-e', script]);
    expect(JSON.parse(execFileSync(command, args, { encoding: 'utf8' }))).toEqual({ limit: 512 * 1024 ** 2, young: SMALL_MACHINE_YOUNG_GENERATION_MB });
  });
});
