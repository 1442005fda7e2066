/**
 * Converts one shard on this machine's worker threads into its part file. The output is written
 * under a temporary name and renamed into place only when complete and synced: a worker killed
 * mid-shard leaves at most a stray temporary file, never a part the coordinator would read.
 * Results are taken in input order by the loop of a single-machine run (in-order.ts).
 */
import { createReadStream } from 'node:fs';
import { access, rename, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { errorLine, placedByInput } from '../failures.js';
import { convertInOrder } from '../in-order.js';
import type { ConversionPool } from '../in-order.js';
import { wholeFileLimit } from '../options.js';
import type { Outcome, SourceRecord } from '../../io/record.js';
import { isFailure, readInputs, reason } from '../../io/sources/index.js';
import type { SourceItem } from '../../io/sources/index.js';
import { splitLines } from '../../io/sources/split.js';
import { PartWriter } from './part-file.js';
import { partPath } from './shard.js';
import type { Piece, ShardCounts, ShardJob } from './shard.js';

export interface ShardHooks {
  /** Called (throttled by the caller) as records settle. */
  onProgress: (counts: ShardCounts) => void;
  /** Called before each record is settled, with how many this attempt has settled so far. */
  beforeSettle?: (settled: number) => Promise<void>;
}

/** `reused`: the part already existed (an earlier attempt finished it but died before reporting). */
export async function runShard(job: ShardJob, pool: ConversionPool, hooks: ShardHooks): Promise<ShardCounts & { reused: boolean }> {
  const final = partPath(job.partsDir, job.nonce, job.index);
  const counts: ShardCounts = { converted: 0, failed: 0, skipped: 0, inputBytes: 0 };
  if (await exists(final)) return { ...counts, reused: true };
  const temporary = `${final}.tmp-${hostname()}-${process.pid}-${Date.now()}`;
  const out = await PartWriter.create(temporary);
  try {
    let settled = 0;
    const settle = async (item: SourceItem, outcome: Outcome): Promise<void> => {
      await hooks.beforeSettle?.(settled);
      if (outcome.status === 'ok') {
        if (isFailure(item)) throw new Error('unreachable: an unreadable input has no Article');
        await out.write({ t: 'ok', source: item.source, position: item.position, wholeFile: item.wholeFile, name: outcome.name, json: outcome.json });
        counts.converted += 1;
      } else if (outcome.status === 'skipped') {
        await out.write({ t: 'skip' });
        counts.skipped += 1;
      } else {
        await out.write({ t: 'fail', wholeFile: placedByInput(item), line: errorLine(item, outcome) });
        counts.failed += 1;
      }
      settled += 1;
      hooks.onProgress(counts);
    };
    await convertInOrder(readShard(job, (n) => (counts.inputBytes += n)), pool, settle);
    await out.finish();
  } catch (error) {
    await out.abandon();
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  // A duplicate attempt (a worker wrongly presumed dead) renames identical bytes over it: harmless.
  await rename(temporary, final);
  return { ...counts, reused: false };
}

/** The shard's records, its pieces one after the other (one window over all of them, no pause between). */
async function* readShard(job: ShardJob, onRawBytes: (n: number) => void): AsyncGenerator<SourceItem> {
  for (const piece of job.pieces) yield* readPiece(piece, job, onRawBytes);
}

/** A piece's records, labelled with the run's own path for the file (as a single-machine run names them). */
async function* readPiece(piece: Piece, job: ShardJob, onRawBytes: (n: number) => void): AsyncGenerator<SourceItem> {
  const relabel = (item: SourceItem): SourceItem => ({ ...item, source: piece.label + item.source.slice(piece.path.length) });
  if (piece.error !== undefined) {
    // Found unreadable by the planner's walk (a dangling link, a cycle, an empty directory).
    yield { source: piece.label, position: 0, code: piece.error.code, error: piece.error.message };
    return;
  }
  if (piece.start === undefined || piece.end === undefined) {
    const options = { exclude: new Set<string>(), onRawBytes, wholeFileLimit: wholeFileLimit(job.options.maxInputBytes), ...(job.options.from === undefined ? {} : { from: job.options.from }) };
    for await (const item of readInputs([piece.path], options)) yield relabel(item);
    return;
  }
  yield* readRange(piece, onRawBytes);
}

async function* readRange(piece: Piece, onRawBytes: (n: number) => void): AsyncGenerator<SourceItem> {
  const firstLine = piece.firstLine ?? 1;
  let position = firstLine - 1;
  try {
    // `end` is inclusive for createReadStream; a range is [start, end).
    if (piece.end! <= piece.start!) return;
    const stream = createReadStream(piece.path, { start: piece.start!, end: piece.end! - 1, highWaterMark: 256 * 1024 });
    for await (const { line, bytes, unterminated } of splitLines(counted(stream as AsyncIterable<Uint8Array>, onRawBytes))) {
      position = firstLine + line - 1;
      const record: SourceRecord = { source: piece.label, position, wholeFile: false, payload: { kind: 'json', bytes } };
      // Ranges end just after a newline, but the file's last one: its last line may have none.
      if (unterminated === true) record.unterminated = true;
      yield record;
    }
  } catch (error) {
    yield { source: piece.label, position: position + 1, code: 'UNREADABLE', error: `cannot read input: ${reason(error)}` };
  }
}

async function* counted(chunks: AsyncIterable<Uint8Array>, onRawBytes: (n: number) => void): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    onRawBytes(chunk.length);
    yield chunk;
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}
