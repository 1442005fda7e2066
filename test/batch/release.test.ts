/** Freeing a record's bytes at once when no one needs them any more (src/io/release.ts), and only bytes no one else shares. */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { release } from '../../src/io/release.js';
import { NdjsonFileSink } from '../../src/io/sinks/ndjson.js';

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

describe('FileAppender and the NDJSON sink free the bytes handed over once they are in the file', () => {
  it('plain and gzip: same file, the Articles freed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikistruct-release-'));
    const record = { source: 'in.ndjson', position: 1, wholeFile: false, payload: { kind: 'json' as const, bytes: new Uint8Array(0) } };
    for (const gzip of [false, true]) {
      const path = join(dir, gzip ? 'out.ndjson.gz' : 'out.ndjson');
      const sink = await NdjsonFileSink.open(path, gzip);
      const articles = [0x61, 0x62, 0x63].map((c) => new Uint8Array(600 * 1024).fill(c));
      for (const json of articles) await sink.write(json, record, undefined);
      await sink.close(true);
      const text = (gzip ? gunzipSync(await readFile(path)) : await readFile(path)).toString('latin1');
      expect(text).toBe(['a', 'b', 'c'].map((c) => `${c.repeat(600 * 1024)}\n`).join(''));
      expect(articles.map((a) => a.byteLength)).toEqual([0, 0, 0]);
    }
  });
});
