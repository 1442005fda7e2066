/**
 * What the /v2 routes share in their replies: entity tags and the one If-None-Match check, the
 * field selection by meaning (part of a tag), JSON replies with the cache headers, and a signal
 * that fires when the client goes away.
 */
import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Selection } from '../../content/fields.js';
import { HttpError } from '../../errors.js';

/**
 * A weak validator of the text that determines a reply's bytes (before compression). The
 * one-shot `hash` costs a third of createHash/update/digest, which was the largest cost of a
 * cached request after the write itself.
 */
export function weakEtag(determinant: string): string {
  return `W/"${hash('sha256', determinant, 'base64url').slice(0, 27)}"`;
}

/** A weak validator of several parts (each ended by NUL, so no two lists of parts share a text). */
export function weakEtagOf(parts: readonly string[]): string {
  return weakEtag(parts.map((part) => `${part}\u0000`).join(''));
}

/** If-None-Match against an entity tag, compared weakly (RFC 9110 §13.1.2); `*` matches any. */
export function noneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

/**
 * The selection as nested arrays of sorted keys: the order and overlap of `fields` do not matter,
 * and a map key holding "," or "(" (`references.metadata.a,b` is one path) cannot pass for two
 * paths, so two different selections never share bytes or a tag.
 */
export function selectionTree(selection: Selection): unknown[] {
  return [...selection.keys()].sort().map((key) => {
    const sub = selection.get(key)!;
    return sub === true ? key : [key, selectionTree(sub)];
  });
}

/** The selection as text for a tag: `*` for none. */
export function selectionId(selection: Selection | undefined): string {
  return selection === undefined ? '*' : JSON.stringify(selectionTree(selection));
}

/** The headers every cacheable /v2 reply carries; true when the client has this version already (send a 304). */
export function cacheHeaders(request: FastifyRequest, reply: FastifyReply, etag: string, cacheControl: string): boolean {
  reply.header('etag', etag).header('cache-control', cacheControl).header('vary', 'Authorization, Accept-Encoding');
  return noneMatch(request.headers['if-none-match'], etag);
}

/**
 * How old a reply is, as HTTP caches read it (RFC 9111 §4.2.3, §5.1): `Age`, the seconds since
 * the wiki last confirmed the oldest of its articles; `Cache-Control: max-age` counted from then,
 * so a client keeps the reply `clientMaxAgeSeconds` from receiving it; `Last-Modified`, the date
 * of its newest revision.
 */
export function ageHeaders(articles: readonly { checkedAt: number; modified: string | undefined }[], nowMs: number, clientMaxAgeSeconds: number): { seconds: number; cacheControl: string; lastModified: string | undefined } {
  let seconds = 0;
  let modified: number | undefined;
  for (const a of articles) {
    seconds = Math.max(seconds, Math.floor((nowMs - a.checkedAt) / 1000));
    const at = a.modified === undefined ? Number.NaN : Date.parse(a.modified);
    if (!Number.isNaN(at) && (modified === undefined || at > modified)) modified = at;
  }
  return {
    seconds,
    cacheControl: `private, max-age=${seconds + clientMaxAgeSeconds}`,
    lastModified: modified === undefined ? undefined : new Date(modified).toUTCString(),
  };
}

/** Sets `Age` and `Last-Modified` of a reply of these articles (ageHeaders); returns its Cache-Control. */
export function setAge(reply: FastifyReply, articles: readonly { checkedAt: number; modified: string | undefined }[], nowMs: number, clientMaxAgeSeconds: number): string {
  const age = ageHeaders(articles, nowMs, clientMaxAgeSeconds);
  if (age.lastModified !== undefined) reply.header('last-modified', age.lastModified);
  reply.header('age', String(age.seconds));
  return age.cacheControl;
}

/** JSON text with the cache headers, or a 304. */
export function sendJson(request: FastifyRequest, reply: FastifyReply, cacheControl: string, etag: string, text: string): FastifyReply {
  if (cacheHeaders(request, reply, etag, cacheControl)) return reply.status(304).send();
  return reply.type('application/json; charset=utf-8').send(text);
}

/**
 * Aborts when the client goes away before the reply is written, so it stops waiting on upstream.
 * The signal is made on first use only: most requests never go upstream (an AbortController per
 * request was 5% of a cached request's CPU).
 */
export function abortOnDisconnect(reply: FastifyReply): { signal: () => AbortSignal; done: () => void } {
  let controller: AbortController | undefined;
  const onClose = (): void => {
    if (!reply.raw.writableFinished) controller?.abort(new HttpError(499, 'client closed the connection'));
  };
  return {
    signal: () => {
      if (controller === undefined) {
        controller = new AbortController();
        // Gone before the signal was asked for: 'close' has fired already.
        if (reply.raw.destroyed) onClose();
        else reply.raw.on('close', onClose);
      }
      return controller.signal;
    },
    done: () => void reply.raw.off('close', onClose),
  };
}
