/**
 * A shard's output: every record's outcome in input order, as frames the coordinator replays
 * through the ordinary sinks. Replaying (rather than concatenating per-format fragments) is what
 * makes the assembled output byte for byte that of a single-machine run in every format: gzip
 * members, snapshot chunk boundaries and directory file names are all decided by the same sink
 * code seeing the same sequence.
 *
 * A frame is one JSON header line; an `ok` header is followed by `bytes` bytes of Article JSON and
 * a newline. The last frame is `end`, so a file cut short is recognised even without the rename.
 */
import { open, readFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import { ErrorLineSchema } from '../../io/sinks/errors.js';
import type { ErrorLine } from '../../io/sinks/errors.js';

const HeaderSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('ok'), source: z.string(), position: z.number().int(), wholeFile: z.boolean(), name: z.string().optional(), bytes: z.number().int().nonnegative() }),
  z.object({ t: z.literal('skip') }),
  z.object({ t: z.literal('fail'), wholeFile: z.boolean(), line: ErrorLineSchema }),
  z.object({ t: z.literal('end'), records: z.number().int().nonnegative() }),
]);

export type Frame =
  | { t: 'ok'; source: string; position: number; wholeFile: boolean; name?: string | undefined; json: Uint8Array }
  | { t: 'skip' }
  | { t: 'fail'; wholeFile: boolean; line: ErrorLine };

const NL = Buffer.from('\n');
const FLUSH_BYTES = 1024 * 1024;

export class PartWriter {
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private records = 0;

  private constructor(private readonly handle: FileHandle) {}

  static async create(path: string): Promise<PartWriter> {
    return new PartWriter(await open(path, 'wx'));
  }

  async write(frame: Frame): Promise<void> {
    this.records += 1;
    if (frame.t === 'ok') {
      const header = { t: 'ok', source: frame.source, position: frame.position, wholeFile: frame.wholeFile, name: frame.name, bytes: frame.json.length };
      this.push(Buffer.from(`${JSON.stringify(header)}\n`), Buffer.from(frame.json.buffer, frame.json.byteOffset, frame.json.length), NL);
    } else {
      this.push(Buffer.from(`${JSON.stringify(frame)}\n`));
    }
    if (this.bufferedBytes >= FLUSH_BYTES) await this.flush();
  }

  /** Writes the end frame and makes the file durable before the caller renames it into place. */
  async finish(): Promise<void> {
    this.push(Buffer.from(`${JSON.stringify({ t: 'end', records: this.records })}\n`));
    await this.flush();
    await this.handle.sync();
    await this.handle.close();
  }

  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }

  private push(...parts: Buffer[]): void {
    for (const p of parts) {
      this.buffered.push(p);
      this.bufferedBytes += p.length;
    }
  }

  private async flush(): Promise<void> {
    if (this.bufferedBytes === 0) return;
    const data = Buffer.concat(this.buffered);
    this.buffered = [];
    this.bufferedBytes = 0;
    await this.handle.write(data);
  }
}

/** Every frame of a finished part file; throws, naming the file, on anything else. */
export async function readPart(path: string): Promise<Frame[]> {
  const data = await readFile(path);
  const frames: Frame[] = [];
  let at = 0;
  while (at < data.length) {
    const nl = data.indexOf(10, at);
    if (nl === -1) break;
    const header = HeaderSchema.safeParse(JSON.parse(data.subarray(at, nl).toString('utf8')));
    if (!header.success) throw new Error(`shard output ${path} is corrupt at byte ${at}`);
    at = nl + 1;
    const h = header.data;
    if (h.t === 'end') {
      if (h.records !== frames.length) throw new Error(`shard output ${path} holds ${frames.length} records, its end frame says ${h.records}`);
      return frames;
    }
    if (h.t === 'ok') {
      const json = new Uint8Array(data.subarray(at, at + h.bytes));
      at += h.bytes + 1;
      frames.push({ t: 'ok', source: h.source, position: h.position, wholeFile: h.wholeFile, name: h.name, json });
    } else {
      frames.push(h);
    }
  }
  throw new Error(`shard output ${path} is incomplete (no end frame)`);
}
