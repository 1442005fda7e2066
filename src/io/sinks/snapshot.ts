/**
 * `--format snapshot`: a `.tar.gz` of NDJSON chunk files, shaped like a structured-contents
 * snapshot (`<name>_0.ndjson`, `<name>_1.ndjson`, ...).
 *
 * Each chunk is built in memory (bounded by `chunkBytes`), packed as one tar entry and written as
 * its own gzip member; the tar end-of-archive blocks come only in the last member. A checkpoint can
 * therefore fall only between chunks, and a resumed run appends the next chunk where the
 * checkpoint left off: the concatenation is one valid tar inside one valid gzip stream.
 */
import { basename } from 'node:path';
import { promisify } from 'node:util';
import { gzip, gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import type { SourceRecord } from '../record.js';
import { FileAppender } from './file-appender.js';
import type { Sink, SinkState } from './sink.js';
import { NEWLINE } from './sink.js';

const gzipAsync = promisify(gzip);
const END_OF_TAR = 1024;

/**
 * The last gzip member of every snapshot file: the tar end-of-archive blocks. Exported so that a
 * run of the file's entry members followed by these bytes is a whole `.tar.gz` too (the snapshot
 * chunks a server serves: src/service/routes/v2/snapshots/routes.ts).
 */
export const END_OF_ARCHIVE_MEMBER: Buffer = gzipSync(new Uint8Array(END_OF_TAR));

export class SnapshotSink implements Sink {
  private chunk: Uint8Array[] = [];
  private chunkBytes = 0;
  /** The file's length after its last complete entry (before the end-of-archive member). */
  private entriesEnd: number;

  private constructor(
    private readonly file: FileAppender,
    private readonly stem: string,
    private readonly maxChunkBytes: number,
    private chunks: number,
  ) {
    this.entriesEnd = file.length;
  }

  static async open(path: string, maxChunkBytes: number, resume?: SinkState): Promise<SnapshotSink> {
    const stem = basename(path).replace(/\.(tar\.gz|tgz)$/i, '');
    return new SnapshotSink(await FileAppender.open(path, resume?.bytes), stem, maxChunkBytes, resume?.chunks ?? 0);
  }

  async write(json: Uint8Array, _record: SourceRecord, _name: string | undefined): Promise<void> {
    this.chunk.push(json, NEWLINE);
    this.chunkBytes += json.length + 1;
    if (this.chunkBytes >= this.maxChunkBytes) await this.endChunk();
  }

  canCommit(): boolean {
    return this.chunkBytes === 0;
  }

  async commit(): Promise<SinkState> {
    await this.file.sync();
    return { bytes: this.file.length, chunks: this.chunks };
  }

  /** An interrupted run leaves the partial chunk out: the resumed run rebuilds it from its checkpoint. */
  async close(finished: boolean): Promise<void> {
    if (!finished) {
      await this.file.close();
      return;
    }
    await this.endChunk();
    await this.file.write(END_OF_ARCHIVE_MEMBER);
    await this.file.close();
  }

  /** Where the entries written so far end in the file: after close, where the end-of-archive member begins. */
  get entriesEndOffset(): number {
    return this.entriesEnd;
  }

  private async endChunk(): Promise<void> {
    if (this.chunkBytes === 0) return;
    const data = Buffer.concat(this.chunk);
    this.chunk = [];
    this.chunkBytes = 0;
    const entry = await tarEntry(`${this.stem}_${this.chunks}.ndjson`, data);
    this.chunks += 1;
    await this.file.write(await gzipAsync(entry));
    this.entriesEnd = this.file.length;
  }
}

/** One tar entry (header, data, padding) without the end-of-archive blocks tar-stream appends. */
async function tarEntry(name: string, data: Buffer): Promise<Buffer> {
  const pack = tar.pack();
  pack.entry({ name, size: data.length, mode: 0o644, mtime: new Date(0) }, data);
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const part of pack) parts.push(part as Buffer);
  const whole = Buffer.concat(parts);
  return whole.subarray(0, whole.length - END_OF_TAR);
}
