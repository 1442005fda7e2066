/**
 * NDJSON output: one Article per line, to a file, a `.gz` file, or stdout.
 *
 * Gzip output is written as a series of gzip members, each closed at a checkpoint (or every
 * few MB): concatenated members are one valid gzip stream (RFC 1952 §2.2), so a resumed run can
 * truncate to the last checkpoint and go on appending members. Compression runs on the libuv
 * thread pool, off the main thread.
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { SourceRecord } from '../record.js';
import { release } from '../release.js';
import { FileAppender } from './file-appender.js';
import type { Sink, SinkState } from './sink.js';
import { NEWLINE } from './sink.js';

const gzipAsync = promisify(gzip);
const MEMBER_BYTES = 8 * 1024 * 1024;

export class NdjsonFileSink implements Sink {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;

  private constructor(
    private readonly file: FileAppender,
    private readonly gzipped: boolean,
  ) {}

  static async open(path: string, gzipped: boolean, resumeAt?: number): Promise<NdjsonFileSink> {
    return new NdjsonFileSink(await FileAppender.open(path, resumeAt), gzipped);
  }

  async write(json: Uint8Array, _record: SourceRecord, _name: string | undefined): Promise<void> {
    if (!this.gzipped) {
      await this.file.write(json, true);
      await this.file.write(NEWLINE);
      return;
    }
    this.pending.push(json, NEWLINE);
    this.pendingBytes += json.length + 1;
    if (this.pendingBytes >= MEMBER_BYTES) await this.endMember();
  }

  canCommit(): boolean {
    return true;
  }

  async commit(): Promise<SinkState> {
    await this.endMember();
    await this.file.sync();
    return { bytes: this.file.length, chunks: 0 };
  }

  async close(_finished: boolean): Promise<void> {
    await this.endMember();
    await this.file.close();
  }

  private async endMember(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const raw = Buffer.concat(this.pending);
    for (const bytes of this.pending) if (bytes !== NEWLINE) release(bytes);
    this.pending = [];
    this.pendingBytes = 0;
    const member = await gzipAsync(raw);
    release(raw);
    await this.file.write(member, true);
  }
}

/** `-o -`: plain NDJSON on stdout, honouring its backpressure. Not resumable. */
export class StdoutSink implements Sink {
  private broken: Error | undefined;

  constructor() {
    // A reader that goes away (`| head`) must stop the run, not crash it with an unhandled EPIPE.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      this.broken = new Error(error.code === 'EPIPE' ? 'stdout was closed by the reading process' : `cannot write to stdout: ${error.message}`);
    });
  }

  async write(json: Uint8Array, _record: SourceRecord, _name: string | undefined): Promise<void> {
    if (this.broken !== undefined) throw this.broken;
    const out = process.stdout;
    const a = out.write(json);
    const b = out.write(NEWLINE);
    if (!a || !b) await this.drained();
  }

  canCommit(): boolean {
    return false;
  }

  commit(): Promise<SinkState> {
    return Promise.resolve({ bytes: 0, chunks: 0 });
  }

  async close(_finished: boolean): Promise<void> {
    if (process.stdout.writableNeedDrain) await this.drained();
    if (this.broken !== undefined) throw this.broken;
  }

  private drained(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        process.stdout.off('drain', done);
        process.stdout.off('error', done);
        resolve();
      };
      process.stdout.on('drain', done);
      process.stdout.on('error', done);
    });
  }
}
