/**
 * BufferRelease frees dead record buffers once its byte budget has passed (issue 26: the main
 * thread of `convert` kept up to 70 MB of them waiting for V8's own collection), and not before.
 * Measured through the process's own ArrayBuffer accounting, so it fails if no collection runs.
 */
import { describe, expect, it } from 'vitest';
import { BufferRelease } from '../../src/batch/release.js';

const MB = 1024 * 1024;

/** 32 MB of record-sized buffers, dead as soon as this returns (as written records are). */
function spend(): number {
  let bytes = 0;
  for (let i = 0; i < 64; i++) {
    const buffer = new Uint8Array(MB / 2);
    buffer[0] = i;
    bytes += buffer.length;
  }
  return bytes;
}

/** ArrayBuffer bytes once V8's sweeper (which may finish after the collection) has caught up. */
async function arrayBuffersSettled(): Promise<number> {
  let last = process.memoryUsage().arrayBuffers;
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 25));
    const now = process.memoryUsage().arrayBuffers;
    if (now === last) return now;
    last = now;
  }
  return last;
}

describe('BufferRelease', () => {
  it('collects dead buffers once the budget is spent, not before', async () => {
    const release = new BufferRelease(48 * MB);
    const before = await arrayBuffersSettled();
    release.settled(spend());
    // Under budget: nothing collected (V8 itself waits for 64 MB of external growth).
    expect(process.memoryUsage().arrayBuffers - before).toBeGreaterThanOrEqual(30 * MB);
    release.settled(spend());
    expect(await arrayBuffersSettled()).toBeLessThan(before + 8 * MB);
  });
});
