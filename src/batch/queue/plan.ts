/**
 * Splits a run's inputs into shards without reading them for the workers: directories are walked
 * (in the order a single-machine run reads them), small files are grouped up to `shardBytes`, and
 * an uncompressed NDJSON file larger than that is cut into byte ranges at line ends. Cutting needs
 * one sequential scan counting newlines (disk speed), so that each range knows its first line
 * number; the records themselves are read by the workers, straight from the shared file system.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { detectInput } from '../../io/sources/detect.js';
import type { InputKind } from '../../io/sources/detect.js';
import { listInputFiles } from '../../io/sources/walk.js';
import type { Piece } from './shard.js';

export interface PlanRequest {
  inputs: readonly string[];
  exclude: ReadonlySet<string>;
  from?: InputKind | undefined;
  shardBytes: number;
}

export async function planShards(request: PlanRequest): Promise<Piece[][]> {
  const shards: Piece[][] = [];
  let group: Piece[] = [];
  let groupBytes = 0;
  const flush = (): void => {
    if (group.length > 0) shards.push(group);
    group = [];
    groupBytes = 0;
  };
  for await (const { path: file, error } of listInputFiles(request.inputs, request.exclude)) {
    if (error !== undefined) {
      group.push({ path: resolve(file), label: file, bytes: 0, error: { code: error.code, message: error.message } });
      continue;
    }
    const size = await stat(file).then((s) => s.size, () => 0);
    if (size > request.shardBytes && (await splittable(file, request.from))) {
      flush();
      for (const range of await lineRanges(file, request.shardBytes)) {
        shards.push([{ path: resolve(file), label: file, ...range, bytes: range.end - range.start }]);
      }
      continue;
    }
    // A file that cannot be read is still a piece: the worker reports it as a single-machine run does.
    group.push({ path: resolve(file), label: file, bytes: size });
    groupBytes += size;
    if (groupBytes >= request.shardBytes) flush();
  }
  flush();
  return shards;
}

async function splittable(file: string, from: InputKind | undefined): Promise<boolean> {
  try {
    const { kind, compression } = await detectInput(file, from);
    return kind === 'ndjson' && compression === 'none';
  } catch {
    return false;
  }
}

export interface LineRange {
  start: number;
  end: number;
  firstLine: number;
}

/** Ranges of at least `shardBytes` (the last may be shorter), each ending just after a newline. */
export async function lineRanges(file: string, shardBytes: number): Promise<LineRange[]> {
  const ranges: LineRange[] = [];
  let offset = 0;
  let lines = 0;
  let start = 0;
  let firstLine = 1;
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    let at = 0;
    for (;;) {
      const nl = chunk.indexOf(10, at);
      if (nl === -1) break;
      lines += 1;
      const end = offset + nl + 1;
      if (end - start >= shardBytes) {
        ranges.push({ start, end, firstLine });
        start = end;
        firstLine = lines + 1;
      }
      at = nl + 1;
    }
    offset += chunk.length;
  }
  if (start < offset) ranges.push({ start, end: offset, firstLine });
  return ranges;
}
