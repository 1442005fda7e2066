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
import type { FastifyReply, FastifyRequest } from 'fastify';
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
 * A chunk: a piece of a snapshot's file, `chunkBytes` long (the last one shorter), in the
 * Enterprise snapshot model (its own identifier and size; the snapshot's version, date, project,
 * language and namespace). The chunks of a file in order are the file; each is as current as the
 * file, so the snapshot's version is its ETag too.
 */
interface Chunk {
  info: Snapshot;
  start: number;
  bytes: number;
}

function chunksOf(file: Sidecar, chunkBytes: number): Chunk[] {
  const snapshot = snapshotOf(file);
  const count = Math.max(1, Math.ceil(file.bytes / chunkBytes));
  return Array.from({ length: count }, (_, n) => {
    const start = n * chunkBytes;
    const bytes = Math.min(chunkBytes, file.bytes - start);
    return { info: { ...snapshot, identifier: `${file.identifier}_chunk_${n}`, size: sizeOf(bytes) }, start, bytes };
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
    // A chunk is a window of that file, cut as the chunk list cuts it.
    const window = piece === 'file' ? { start: 0, bytes: fileSize, name: info.identifier } : chunkWindow(info, fileSize, chunk!, content.snapshotChunkBytes);
    if (window === undefined) throw new HttpError(404, `no chunk "${chunk!}" of the ${of.label} "${identifier}": it has ${chunksOf(info, content.snapshotChunkBytes).length} (${identifier}_chunk_0, …)`);
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
    return reply.send(handle.createReadStream({ start: window.start + start, end: window.start + end, autoClose: true }));
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

/** Where a chunk lies in the file opened (cut as the list cuts the sidecar's length); undefined: no such chunk. */
function chunkWindow(info: Sidecar, fileSize: number, chunk: string, chunkBytes: number): { start: number; bytes: number; name: string } | undefined {
  const n = chunkNumber(info.identifier, chunk);
  if (n === undefined) return undefined;
  const start = n * chunkBytes;
  if (start > 0 && start >= fileSize) return undefined;
  return { start, bytes: Math.min(chunkBytes, fileSize - start), name: chunk };
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
