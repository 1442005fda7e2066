/**
 * The routes of one kind of snapshot (built by serve's schedule or `wikistruct snapshot build`,
 * src/service/snapshots), under its path (`/v2/snapshots/structured-contents` for structured
 * ones, `/v2/snapshots` for regular ones):
 *
 * - GET|POST <path>: the list, with `filters` (any field: `is_part_of.identifier`,
 *   `in_language.identifier`, `namespace.identifier`) and `fields`;
 * - GET|POST <path>/{identifier}: one snapshot's info;
 * - GET|HEAD <path>/{identifier}/download: the `.tar.gz`, streamed from disk (never read into
 *   memory), with one byte range on request (206, or 416 when none of it exists), a strong ETag
 *   (the version) and Last-Modified for If-Range, and HEAD for the size.
 *
 * Requests only read what a finished build published (the sidecar, then the file it names).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { END_OF_ARCHIVE_MEMBER } from '../../../../io/sinks/snapshot.js';
import { SnapshotModel, type Snapshot } from '../../../content/enterprise/models.js';
import { HttpError } from '../../../errors.js';
import { kindDir, listSidecars, parseSnapshotIdentifier, readSidecar, sizeOf, type Sidecar, type SnapshotKind } from '../../../snapshots/layout.js';
import { ifRangeHolds, rangeOf } from '../../../snapshots/range.js';
import { contentOf, type ContentContext, type RouteContext } from '../../context.js';
import { route, type Method, type RouteEntry } from '../../route.js';
import { enterpriseErrors, message, notModified } from '../docs.js';
import { noneMatch } from '../http.js';
import { listingRoutes } from '../listing.js';

export interface SnapshotRoutesOf {
  kind: SnapshotKind;
  path: string;
  /** The Enterprise name of the kind, in the replies' messages and the documents: "structured snapshot", "snapshot". */
  label: string;
  /** What the file holds, for the documents. */
  holds: string;
}

/** The directory of this kind's snapshots; undefined: the server serves none. */
const dirOf = (content: ContentContext, kind: SnapshotKind): string | undefined => (content.snapshotsDir === undefined ? undefined : kindDir(content.snapshotsDir, kind));

const sidecar = async (dir: string | undefined, identifier: string): Promise<Sidecar | undefined> =>
  dir === undefined || parseSnapshotIdentifier(identifier) === undefined ? undefined : readSidecar(dir, identifier);

const downloadHeaders = {
  'Content-Length': { schema: { type: 'integer' } },
  'Accept-Ranges': { schema: { type: 'string' } },
  ETag: { description: 'Strong: the snapshot version', schema: { type: 'string' } },
  'Last-Modified': { schema: { type: 'string' } },
  'Content-Disposition': { schema: { type: 'string' } },
};
const gzip = { 'application/gzip': { schema: { type: 'string', format: 'binary' } } };

const EMPTY = Buffer.alloc(0);

/** What a download sends: the whole file, or one chunk of it. */
type Piece = 'file' | 'chunk';

const download = (of: SnapshotRoutesOf, method: Method, summary: string, piece: Piece = 'file'): RouteEntry =>
  route({
    method,
    path: piece === 'file' ? `${of.path}/:identifier/download` : `${of.path}/:identifier/chunks/:chunk/download`,
    part: 'content',
    summary,
    errors: {
      '404': message(piece === 'file' ? 'no such snapshot (not built)' : 'no such snapshot (not built) or chunk'),
      '416': { ...message('no byte of the range exists'), headers: { 'Content-Range': { description: 'bytes */<size>', schema: { type: 'string' } } } },
      ...enterpriseErrors,
    },
    openapi: {
      parameters: [
        { name: 'identifier', in: 'path', required: true, description: 'Snapshot identifier, e.g. enwiki_namespace_0', schema: { type: 'string' } },
        ...(piece === 'file' ? [] : [{ name: 'chunk', in: 'path', required: true, description: 'Chunk identifier, e.g. enwiki_namespace_0_chunk_0', schema: { type: 'string' } }]),
        { name: 'Range', in: 'header', required: false, description: 'One byte range: bytes=0-499, bytes=500-, bytes=-500 (several ranges: the whole file)', schema: { type: 'string' } },
        { name: 'If-Range', in: 'header', required: false, description: 'The ETag or Last-Modified the other pieces came from: the range is honoured only if it is still current', schema: { type: 'string' } },
      ],
      responses: {
        '200': {
          description: piece === 'file' ? `The whole .tar.gz: NDJSON entries of ${of.holds}` : 'The chunk: its bytes of the .tar.gz (the chunks in order are the file)',
          headers: downloadHeaders,
          content: gzip,
        },
        '206': { description: 'The byte range asked for', headers: { ...downloadHeaders, 'Content-Range': { schema: { type: 'string' } } }, content: gzip },
        ...notModified,
      },
    },
    guard: { limit: 'content' },
    // Already gzip: compressing it again would only cost CPU and break byte ranges. HEAD is its own entry.
    options: { compress: false, exposeHeadRoute: false },
    handler: (_input, request, reply, ctx) => sendDownload(of, piece, request, reply, ctx),
  });

/** The list, info and download routes of one kind. */
export function snapshotRoutes(of: SnapshotRoutesOf): RouteEntry[] {
  const Label = `${of.label[0]!.toUpperCase()}${of.label.slice(1)}`;
  return [
    ...listingRoutes({
      path: of.path,
      model: SnapshotModel,
      label: 'Snapshot',
      list: async (content) => {
        const dir = dirOf(content, of.kind);
        return dir === undefined ? [] : (await listSidecars(dir)).map((found) => withChunks(found, content.snapshotChunkBytes));
      },
      item: async (content, identifier) => {
        const found = await sidecar(dirOf(content, of.kind), identifier);
        return found === undefined ? undefined : withChunks(found, content.snapshotChunkBytes);
      },
      missing: (identifier) => missingMessage(of, identifier),
      docs: {
        summary: `${Label}s built from the store`,
        filterExample: 'is_part_of.identifier:enwiki',
        identifier: 'Snapshot identifier: <project>_namespace_<number>, e.g. enwiki_namespace_0',
      },
    }),
    download(of, 'GET', `Download a ${of.label} (streamed; Range for parallel pieces)`),
    download(of, 'HEAD', 'The download headers alone: its size (Content-Length), ETag, Last-Modified'),
    ...listingRoutes({
      path: `${of.path}/:identifier/chunks`,
      itemParameter: 'chunk',
      model: SnapshotModel,
      label: 'Snapshot',
      list: async (content, params) => {
        const found = await sidecar(dirOf(content, of.kind), params['identifier']!);
        return found === undefined ? undefined : chunksOf(found, content.snapshotChunkBytes).map((c) => c.info);
      },
      item: async (content, chunk, params) => (await chunkOf(content, of, params['identifier']!, chunk))?.info,
      missing: (chunk) => `no chunk "${chunk}" of a built ${of.label}: chunk identifiers look like enwiki_namespace_0_chunk_0`,
      missingList: (params) => missingMessage(of, params['identifier']!),
      docs: {
        summary: `The chunks of a ${of.label}: its file cut into consecutive pieces, each with its size`,
        filterExample: 'identifier:enwiki_namespace_0_chunk_0',
        identifier: 'Chunk identifier: <snapshot identifier>_chunk_<number>, e.g. enwiki_namespace_0_chunk_0',
        outer: 'Snapshot identifier, e.g. enwiki_namespace_0',
      },
    }),
    download(of, 'GET', `Download a chunk of a ${of.label} (streamed; Range within it)`, 'chunk'),
    download(of, 'HEAD', 'The chunk download headers alone: its size (Content-Length), ETag, Last-Modified', 'chunk'),
  ];
}

/**
 * A chunk: a run of consecutive NDJSON entries of the snapshot's file, in the Enterprise snapshot
 * model (its own identifier and size; the snapshot's version, date, project, language and
 * namespace). Production serves each chunk as a `.tar.gz` of its own (the Python SDK's
 * `read_chunk` opens each as an archive), and so does this server, without a copy on disk and
 * without packing anything on a request: the file is a series of gzip members, one per entry
 * (each a tar header, an entry's whole NDJSON lines and padding) and a last one of the tar
 * end-of-archive blocks (src/io/sinks/snapshot.ts), so the bytes of entries first..last followed
 * by that last member are a whole `.tar.gz` (one multi-member gzip stream holding one tar).
 * The sidecar records where each entry ends (the builder writes it), and the entries are grouped
 * here, in order, into chunks of at most `chunkBytes` (a single entry larger than that is a chunk
 * alone), so no article is ever split. Each is as current as the file, so the snapshot's version
 * is its ETag too. A sidecar of a build before chunks has one chunk: the whole file.
 */
interface Chunk {
  info: Snapshot;
  /** Where its entries lie in the file. */
  start: number;
  end: number;
  /** What follows them in the download: the end-of-archive member (nothing for a whole file of an old sidecar). */
  suffix: Buffer;
  /** The download's length. */
  bytes: number;
}

function chunksOf(file: Sidecar, chunkBytes: number): Chunk[] {
  const snapshot = snapshotOf(file);
  const cuts: { start: number; end: number; suffix: Buffer }[] = [];
  if (file.entry_ends === undefined) {
    cuts.push({ start: 0, end: file.bytes, suffix: EMPTY });
  } else {
    let start = 0;
    let end = 0;
    for (const next of file.entry_ends) {
      // Adding this entry would make the chunk too long: the chunk ends before it (never empty).
      if (end > start && next - start + END_OF_ARCHIVE_MEMBER.length > chunkBytes) {
        cuts.push({ start, end, suffix: END_OF_ARCHIVE_MEMBER });
        start = end;
      }
      end = next;
    }
    // The last chunk (or the only one, of an empty snapshot: the end-of-archive member alone).
    cuts.push({ start, end, suffix: END_OF_ARCHIVE_MEMBER });
  }
  return cuts.map((cut, n) => {
    const bytes = cut.end - cut.start + cut.suffix.length;
    return { info: { ...snapshot, identifier: `${file.identifier}_chunk_${n}`, size: sizeOf(bytes) }, ...cut, bytes };
  });
}

/** A snapshot's info with the identifiers of its chunks, as the Enterprise snapshot model lists them. */
function withChunks(file: Sidecar, chunkBytes: number): Snapshot {
  return { ...snapshotOf(file), chunks: chunksOf(file, chunkBytes).map((c) => c.info.identifier) };
}

/** The chunk `chunk` of the snapshot `identifier`, if both exist. */
async function chunkOf(content: ContentContext, of: SnapshotRoutesOf, identifier: string, chunk: string): Promise<Chunk | undefined> {
  const n = chunkNumber(identifier, chunk);
  const found = n === undefined ? undefined : await sidecar(dirOf(content, of.kind), identifier);
  return found === undefined ? undefined : chunksOf(found, content.snapshotChunkBytes)[n!];
}

/** n of `<identifier>_chunk_<n>`; undefined for another snapshot's chunk or not a chunk identifier. */
function chunkNumber(identifier: string, chunk: string): number | undefined {
  const match = /^(.+)_chunk_(0|[1-9]\d{0,8})$/.exec(chunk);
  return match?.[1] === identifier ? Number(match[2]) : undefined;
}

async function sendDownload(of: SnapshotRoutesOf, piece: Piece, request: FastifyRequest, reply: FastifyReply, ctx: RouteContext): Promise<unknown> {
  const content = contentOf(ctx);
  const { identifier, chunk } = request.params as { identifier: string; chunk?: string };
  const opened = await openPublished(dirOf(content, of.kind), identifier);
  if (opened === undefined) throw new HttpError(404, missingMessage(of, identifier));
  const { info, handle } = opened;
  let handed = false;
  try {
    // The size of the file actually opened: a build that published meanwhile changed the sidecar, not this file.
    const fileSize = (await handle.stat()).size;
    // A chunk: entries of that file (the sidecar read with it describes it) and the end-of-archive member.
    const window = piece === 'file' ? { start: 0, end: fileSize, suffix: EMPTY, bytes: fileSize, name: info.identifier } : chunkWindow(info, chunk!, content.snapshotChunkBytes);
    if (window === undefined) throw new HttpError(404, `no chunk "${chunk!}" of the ${of.label} "${identifier}": it has ${chunksOf(info, content.snapshotChunkBytes).length} (${identifier}_chunk_0, …)`);
    if (window.end > fileSize) throw new Error(`${info.file} is ${fileSize} bytes, shorter than its sidecar says (${window.end})`);
    const size = window.bytes;
    const etag = `"${info.version}"`;
    const lastModified = new Date(info.date_modified).toUTCString();
    reply.header('etag', etag).header('last-modified', lastModified).header('accept-ranges', 'bytes').header('cache-control', content.cacheControl);
    if (noneMatch(request.headers['if-none-match'], etag)) return reply.status(304).send();
    const asked = ifRangeHolds(headerOf(request, 'if-range'), etag, lastModified) ? rangeOf(headerOf(request, 'range'), size) : { kind: 'full' as const };
    if (asked.kind === 'unsatisfiable') {
      throw new HttpError(416, `range not satisfiable: ${window.name}.tar.gz is ${size} bytes`, undefined, { 'content-range': `bytes */${size}` });
    }
    reply.header('content-disposition', `attachment; filename="${window.name}.tar.gz"`);
    const [start, end] = asked.kind === 'partial' ? [asked.start, asked.end] : [0, size - 1];
    if (asked.kind === 'partial') reply.status(206).header('content-range', `bytes ${start}-${end}/${size}`);
    reply.type('application/gzip').header('content-length', String(end - start + 1));
    if (request.method === 'HEAD' || size === 0) return reply.send();
    handed = true;
    return reply.send(Readable.from(windowBytes(handle, window, start, end)));
  } finally {
    if (!handed) await handle.close();
  }
}

/**
 * The published file opened, with its sidecar. A build may replace both between the two reads
 * (the old file is deleted right after the new sidecar is written): then read them once more.
 * A sidecar whose file stays missing (a directory cleaned by hand) is no snapshot.
 */
async function openPublished(dir: string | undefined, identifier: string): Promise<{ info: Sidecar; handle: FileHandle } | undefined> {
  for (let attempt = 1; attempt <= 2; attempt++) {
    const info = await sidecar(dir, identifier);
    if (info === undefined || dir === undefined) return undefined;
    try {
      return { info, handle: await open(join(dir, info.file), 'r') };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return undefined;
}

/** The chunk `chunk` of the file `info` describes, with its download's name; undefined: no such chunk. */
function chunkWindow(info: Sidecar, chunk: string, chunkBytes: number): (Chunk & { name: string }) | undefined {
  const n = chunkNumber(info.identifier, chunk);
  const found = n === undefined ? undefined : chunksOf(info, chunkBytes)[n];
  return found === undefined ? undefined : { ...found, name: chunk };
}

/**
 * Bytes from..to (inclusive) of a download: the file's bytes window.start..window.end, then the
 * window's suffix. Streamed from disk; closes the handle when done or abandoned.
 */
async function* windowBytes(handle: FileHandle, window: { start: number; end: number; suffix: Buffer }, from: number, to: number): AsyncGenerator<Buffer> {
  try {
    const inFile = window.end - window.start;
    if (from < inFile) {
      for await (const part of handle.createReadStream({ start: window.start + from, end: window.start + Math.min(to, inFile - 1), autoClose: false })) yield part as Buffer;
    }
    if (to >= inFile) yield window.suffix.subarray(Math.max(0, from - inFile), to - inFile + 1);
  } finally {
    await handle.close();
  }
}

/** The Enterprise snapshot model of a sidecar (its bookkeeping fields left out). */
function snapshotOf(info: Sidecar): Snapshot {
  return SnapshotModel.parse(info);
}

function missingMessage(of: SnapshotRoutesOf, identifier: string): string {
  if (parseSnapshotIdentifier(identifier) === undefined) return `no ${of.label} "${identifier}": identifiers look like enwiki_namespace_0`;
  return `no ${of.label} "${identifier}" (the server builds snapshots of stored projects in the background, or build them with \`wikistruct snapshot build\`)`;
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
