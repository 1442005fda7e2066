/**
 * Structured snapshots (built by `wikistruct snapshot build`, src/service/snapshots):
 *
 * - GET|POST /v2/snapshots/structured-contents: the list, with `filters` (any field:
 *   `is_part_of.identifier`, `in_language.identifier`, `namespace.identifier`) and `fields`;
 * - GET|POST /v2/snapshots/structured-contents/{identifier}: one snapshot's info;
 * - GET|HEAD /v2/snapshots/structured-contents/{identifier}/download: the `.tar.gz`, streamed from
 *   disk (never read into memory), with one byte range on request (206, or 416 when none of it
 *   exists), a strong ETag (the version) and Last-Modified for If-Range, and HEAD for the size.
 *
 * Requests only read what a finished build published (the sidecar, then the file it names).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../errors.js';
import { listSidecars, parseSnapshotIdentifier, readSidecar, type Sidecar } from '../../snapshots/layout.js';
import { ifRangeHolds, rangeOf } from '../../snapshots/range.js';
import { noneMatch, rateLimit, type EnterpriseRoutesOptions } from './http.js';
import { registerListing } from './listing.js';
import { SnapshotModel, type Snapshot } from './models.js';

const PATH = '/snapshots/structured-contents';

export const snapshotRoutes: FastifyPluginAsync<EnterpriseRoutesOptions> = async (app, options) => {
  const dir = options.snapshotsDir;
  const sidecar = async (identifier: string): Promise<Sidecar | undefined> =>
    dir === undefined || parseSnapshotIdentifier(identifier) === undefined ? undefined : readSidecar(dir, identifier);

  registerListing(app, options, {
    path: PATH,
    model: SnapshotModel,
    label: 'Snapshot',
    list: async () => (dir === undefined ? [] : (await listSidecars(dir)).map(snapshotOf)),
    item: async (identifier) => {
      const found = await sidecar(identifier);
      return found === undefined ? undefined : snapshotOf(found);
    },
    missing: missingMessage,
  });

  const download = async (request: FastifyRequest, reply: FastifyReply) => {
    await rateLimit(options, request);
    const identifier = (request.params as { identifier: string }).identifier;
    const opened = await openPublished(identifier);
    if (opened === undefined) throw new HttpError(404, missingMessage(identifier));
    const { info, handle } = opened;
    let handed = false;
    try {
      // The size of the file actually opened: a build that published meanwhile changed the sidecar, not this file.
      const { size } = await handle.stat();
      const etag = `"${info.version}"`;
      const lastModified = new Date(info.date_modified).toUTCString();
      reply.header('etag', etag).header('last-modified', lastModified).header('accept-ranges', 'bytes').header('cache-control', options.cacheControl);
      if (noneMatch(request.headers['if-none-match'], etag)) return reply.status(304).send();
      const asked = ifRangeHolds(headerOf(request, 'if-range'), etag, lastModified) ? rangeOf(headerOf(request, 'range'), size) : { kind: 'full' as const };
      if (asked.kind === 'unsatisfiable') {
        throw new HttpError(416, `range not satisfiable: ${info.identifier}.tar.gz is ${size} bytes`, undefined, { 'content-range': `bytes */${size}` });
      }
      reply.header('content-disposition', `attachment; filename="${info.identifier}.tar.gz"`);
      const [start, end] = asked.kind === 'partial' ? [asked.start, asked.end] : [0, size - 1];
      if (asked.kind === 'partial') reply.status(206).header('content-range', `bytes ${start}-${end}/${size}`);
      reply.type('application/gzip').header('content-length', String(end - start + 1));
      if (request.method === 'HEAD' || size === 0) return reply.send();
      handed = true;
      return reply.send(handle.createReadStream({ start, end, autoClose: true }));
    } finally {
      if (!handed) await handle.close();
    }
  };

  /**
   * The published file opened, with its sidecar. A build may replace both between the two reads
   * (the old file is deleted right after the new sidecar is written): then read them once more.
   * A sidecar whose file stays missing (a directory cleaned by hand) is no snapshot.
   */
  const openPublished = async (identifier: string): Promise<{ info: Sidecar; handle: FileHandle } | undefined> => {
    for (let attempt = 1; attempt <= 2; attempt++) {
      const info = await sidecar(identifier);
      if (info === undefined || dir === undefined) return undefined;
      try {
        return { info, handle: await open(join(dir, info.file), 'r') };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return undefined;
  };

  // The download is already gzip: compressing it again would only cost CPU and break byte ranges.
  const route = { preHandler: options.authenticate, compress: false, exposeHeadRoute: false } as const;
  app.get(`${PATH}/:identifier/download`, route, download);
  app.head(`${PATH}/:identifier/download`, route, download);
};

/** The Enterprise snapshot model of a sidecar (its bookkeeping fields left out). */
function snapshotOf(info: Sidecar): Snapshot {
  return SnapshotModel.parse(info);
}

function missingMessage(identifier: string): string {
  if (parseSnapshotIdentifier(identifier) === undefined) return `no structured snapshot "${identifier}": identifiers look like enwiki_namespace_0`;
  return `no structured snapshot "${identifier}" (build it with \`wikistruct snapshot build\`)`;
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
