/**
 * What route handlers work with, built once per app (app.ts): the auth service and keys for /v1,
 * the content service, store, catalog, engine client, limiters and caches for /v2. A part the
 * process does not serve (`--only`) is undefined, and its routes are not registered.
 */
import type { Counter } from 'prom-client';
import type { AuthService } from '../auth/service.js';
import type { KeyStore } from '../auth/keys.js';
import type { Clock } from '../clock.js';
import type { Catalog } from '../content/enterprise/catalog.js';
import type { RequestLimiter } from '../content/rate-limit.js';
import type { ReplyCache } from '../content/reply-cache.js';
import type { ContentService } from '../content/service.js';
import type { ArticleStore } from '../content/store.js';
import type { EngineClient } from '../engine-client.js';
import type { Metrics } from '../metrics.js';
import type { Db } from '../storage/db.js';

export interface ContentContext {
  service: ContentService;
  store: ArticleStore;
  catalog: Catalog;
  engine: EngineClient;
  /** The /v2 request limit, and /v2/parse's and /v2/source's own. */
  limiter: RequestLimiter;
  parseLimiter: RequestLimiter;
  /** Reply bytes of structured contents, per content and coding, and its hit counter. */
  replies: ReplyCache;
  replyLookups: Counter<'result'>;
  /** `Cache-Control` of the cacheable /v2 replies. */
  cacheControl: string;
  /** Its max-age: on Article replies counted from the article's last confirmation (their `Age`). */
  clientMaxAgeSeconds: number;
  /** Where structured snapshots live; undefined: none are served. */
  snapshotsDir: string | undefined;
  /** The size of a snapshot's chunks (`/v2/snapshots/{identifier}/chunks`): consecutive pieces of its file. */
  snapshotChunkBytes: number;
  /** The largest html or wikitext /v2/parse takes, in UTF-8 bytes. */
  maxInputBytes: number;
}

export interface RouteContext {
  db: Db;
  clock: Clock;
  metrics: Metrics;
  auth: AuthService | undefined;
  keys: KeyStore;
  content: ContentContext | undefined;
  /** The OpenAPI documents, written once from the route table. */
  openapi: { v1: Record<string, unknown>; v2: Record<string, unknown> };
}

/** The content part, which a /v2 route is only registered with. */
export function contentOf(ctx: RouteContext): ContentContext {
  if (ctx.content === undefined) throw new Error('a /v2 route was registered without the content API');
  return ctx.content;
}

/** The auth part, which a /v1 route is only registered with. */
export function authOf(ctx: RouteContext): AuthService {
  if (ctx.auth === undefined) throw new Error('a /v1 route was registered without the auth API');
  return ctx.auth;
}
