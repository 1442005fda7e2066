/**
 * Buffered appends to one file, with an exact byte count and `sync` for checkpoints. Opening at
 * `resumeAt` truncates whatever an interrupted run wrote after its last checkpoint.
 */
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { release } from '../release.js';
import { UsageError } from '../usage-error.js';

const FLUSH_AT = 1024 * 1024;

export class FileAppender {
  private buffered: Uint8Array[] = [];
  /** The buffered bytes the appender may free once written (`write(bytes, true)`). */
  private owned: Uint8Array[] = [];
  private bufferedBytes = 0;
  /** Bytes in the file plus bytes still buffered. */
  length: number;

  private constructor(
    private readonly handle: FileHandle,
    start: number,
  ) {
    this.length = start;
  }

  static async open(path: string, resumeAt?: number): Promise<FileAppender> {
    if (resumeAt === undefined) return new FileAppender(await open(path, 'w'), 0);
    const handle = await open(path, 'r+').catch(async (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' && resumeAt === 0) return open(path, 'w');
      throw error;
    });
    const { size } = await handle.stat();
    if (size < resumeAt) {
      await handle.close();
      throw new UsageError(`${path} is ${size} bytes, shorter than the checkpoint's ${resumeAt}: it was changed since; run without --resume`);
    }
    await handle.truncate(resumeAt);
    return new FileAppender(handle, resumeAt);
  }

  /**
   * Resolves at once unless the buffer had to be written out (natural backpressure). With `owned`,
   * the bytes are handed over: freed as soon as they are in the file (src/io/release.ts), so the
   * caller must not use them afterwards.
   */
  async write(bytes: Uint8Array, owned = false): Promise<void> {
    this.buffered.push(bytes);
    if (owned) this.owned.push(bytes);
    this.bufferedBytes += bytes.length;
    this.length += bytes.length;
    if (this.bufferedBytes >= FLUSH_AT) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.bufferedBytes === 0) return;
    const chunks = this.buffered;
    const owned = this.owned;
    const position = this.length - this.bufferedBytes;
    this.buffered = [];
    this.owned = [];
    this.bufferedBytes = 0;
    const joined = chunks.length > 1;
    // Once joined, the pieces handed over are no longer needed: freed before the write.
    const data = joined ? Buffer.concat(chunks) : chunks[0]!;
    if (joined) owned.forEach(release);
    let written = 0;
    // write may take fewer bytes than asked; loop until every byte is in the file.
    while (written < data.length) {
      const { bytesWritten } = await this.handle.write(data, written, data.length - written, position + written);
      written += bytesWritten;
    }
    if (joined) release(data);
    else owned.forEach(release);
  }

  async sync(): Promise<void> {
    await this.flush();
    await this.handle.sync();
  }

  async close(): Promise<void> {
    await this.flush();
    await this.handle.close();
  }
}
