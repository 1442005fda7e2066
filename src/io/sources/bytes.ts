/**
 * Opens an input file as a stream of decompressed byte chunks (gzip and bzip2 by magic number,
 * not by name), reporting the raw bytes read so progress can show MB/s and an ETA.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { bunzip } from './bunzip.js';

export type Compression = 'none' | 'gzip' | 'bzip2';

export function compressionOf(head: Uint8Array): Compression {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head[0] === 0x42 && head[1] === 0x5a && head[2] === 0x68) return 'bzip2';
  return 'none';
}

const READ_CHUNK = 1024 * 1024;

/**
 * The file's decompressed bytes. `onRawBytes` is called with each raw chunk's size as it is read.
 * A cut or corrupt compressed stream yields everything it could decompress, then throws.
 */
export function openDecompressed(path: string, compression: Compression, onRawBytes: (n: number) => void): AsyncIterable<Uint8Array> {
  if (compression === 'none') return counted(createReadStream(path, { highWaterMark: READ_CHUNK }), onRawBytes);
  const raw = openRaw(path, onRawBytes);
  if (compression === 'gzip') {
    const gunzip = createGunzip({ chunkSize: 256 * 1024 });
    raw.on('error', (error) => gunzip.destroy(error));
    return drained(raw.pipe(gunzip));
  }
  return drained(bunzip(raw, READ_CHUNK));
}

/**
 * Every chunk a stream produced, then its error if it failed. Node's own async iterator stops at
 * the error and drops the chunks still buffered (measured: 30-90 KB of a cut gzip file behind a
 * slow reader), so the pages or records just before a cut would be lost, and the failure
 * reported at the wrong place. A destroyed stream still hands out its buffer to `read()`.
 */
export async function* drained(stream: Readable): AsyncGenerator<Uint8Array> {
  let failure: unknown;
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  stream.on('readable', notify);
  stream.on('end', () => {
    ended = true;
    notify();
  });
  stream.on('close', () => {
    ended = true;
    notify();
  });
  stream.on('error', (error) => {
    failure = error;
    notify();
  });
  try {
    for (;;) {
      const chunk = stream.read() as Uint8Array | null;
      if (chunk !== null) {
        yield chunk;
        continue;
      }
      if (failure !== undefined) throw failure;
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    // Left early (the run stopped): release the file and the decompressor.
    stream.destroy();
  }
}

/**
 * The raw file for piping into a decompressor. Counting with a 'data' listener is safe here only
 * because `pipe` consumes in flowing mode too; a stream read by async iteration uses `counted`.
 */
export function openRaw(path: string, onRawBytes: (n: number) => void): Readable {
  const raw = createReadStream(path, { highWaterMark: READ_CHUNK });
  raw.on('data', (chunk: Buffer | string) => onRawBytes(chunk.length));
  return raw;
}

async function* counted(stream: AsyncIterable<Buffer>, onRawBytes: (n: number) => void): AsyncGenerator<Uint8Array> {
  for await (const chunk of stream) {
    onRawBytes(chunk.length);
    yield chunk;
  }
}
