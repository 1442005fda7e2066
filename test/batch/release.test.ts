/** Freeing a settled record's bytes at once (src/io/release.ts), and only bytes no one else shares. */
import { describe, expect, it } from 'vitest';
import { release } from '../../src/io/release.js';

describe('release', () => {
  it('frees a buffer its view covers whole: the memory goes at once, the view is empty', () => {
    const before = process.memoryUsage().arrayBuffers;
    const bytes = new Uint8Array(8 * 1024 * 1024).fill(1);
    expect(process.memoryUsage().arrayBuffers - before).toBeGreaterThanOrEqual(8 * 1024 * 1024);
    release(bytes);
    expect(bytes.byteLength).toBe(0);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1024 * 1024);
  });

  it('leaves a view into a larger buffer, a small buffer and a shared one alone', () => {
    const chunk = new Uint8Array(1024 * 1024).fill(2);
    const view = chunk.subarray(0, 512 * 1024);
    release(view);
    expect(view.byteLength).toBe(512 * 1024);
    expect(chunk[0]).toBe(2);
    const small = new Uint8Array(100);
    release(small);
    expect(small.byteLength).toBe(100);
    const shared = new Uint8Array(new SharedArrayBuffer(1024 * 1024));
    release(shared);
    expect(shared.byteLength).toBe(1024 * 1024);
  });
});
