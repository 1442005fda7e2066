/**
 * What every Enterprise route shares: the rate limit, entity tags and If-None-Match, and a
 * signal that fires when the client goes away.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.js';
import { HttpError } from '../../errors.js';
import type { Metrics } from '../../metrics.js';
import type { Db } from '../../storage/db.js';
import type { Catalog } from './catalog.js';
import type { Selection } from '../fields.js';
import { limitOrThrow, type RequestLimiter } from '../rate-limit.js';
import type { ContentService } from '../service.js';

/** What routes.ts hands the Enterprise routes: the content API's own service, limiter and guard. */
export interface EnterpriseRoutesOptions {
  db: Db;
  clock: Clock;
  service: ContentService;
  /** The stored projects and languages, kept between requests and dropped by writes. */
  catalog: Catalog;
  limiter: RequestLimiter;
  metrics: Metrics;
  authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  cacheControl: string;
  /** Where structured snapshots live (snapshots/layout.ts); undefined: none are served. */
  snapshotsDir: string | undefined;
}

/** Takes a token for the caller, or refuses with a 429 and Retry-After. */
export async function rateLimit(options: EnterpriseRoutesOptions, request: FastifyRequest): Promise<void> {
  await limitOrThrow(options.limiter, options.metrics, request.accessClaims?.sub ?? request.ip);
}

/** A weak validator from the parts that determine the reply's bytes. */
export function weakEtag(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part}\u0000`);
  return `W/"${hash.digest('base64url').slice(0, 27)}"`;
}

/**
 * The selection by meaning, for the ETag: nested arrays of sorted keys, so the order and overlap
 * of `fields` do not matter, and a map key holding "," or "(" cannot pass for two paths.
 */
export function selectionId(selection: Selection | undefined): string {
  const tree = (s: Selection): unknown[] =>
    [...s.keys()].sort().map((key) => {
      const sub = s.get(key)!;
      return sub === true ? key : [key, tree(sub)];
    });
  return selection === undefined ? '*' : JSON.stringify(tree(selection));
}

/** If-None-Match against an entity tag, compared weakly (RFC 9110 §13.1.2). */
export function noneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

/**
 * Sends JSON text with the headers every Enterprise reply carries, or a 304 when the client has
 * this version already.
 */
export function sendJson(request: FastifyRequest, reply: FastifyReply, options: EnterpriseRoutesOptions, etag: string, text: string): FastifyReply {
  reply.header('etag', etag).header('cache-control', options.cacheControl).header('vary', 'Authorization, Accept-Encoding');
  if (noneMatch(request.headers['if-none-match'], etag)) return reply.status(304).send();
  return reply.type('application/json; charset=utf-8').send(text);
}

/** Aborts when the client goes away before the reply is written, so it stops waiting on upstream. */
export function abortOnDisconnect(reply: FastifyReply): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const onClose = (): void => {
    if (!reply.raw.writableFinished) controller.abort(new HttpError(499, 'client closed the connection'));
  };
  reply.raw.on('close', onClose);
  return { signal: controller.signal, done: () => reply.raw.off('close', onClose) };
}
