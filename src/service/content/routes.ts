/**
 * The /v2 routes: POST and GET /structured-contents/{article_name} and the OpenAPI document.
 *
 * Articles are sent as the stored JSON text, never through a fastify response schema: a schema
 * would re-serialise (slow for big Articles) and silently drop fields it does not declare inside
 * the recursive Part tree. The reply bytes themselves are kept per content and coding
 * (reply-cache.ts), so a popular article is joined and compressed once, not per request; these
 * routes therefore bypass @fastify/compress, which would compress every reply again.
 */
import { hash } from 'node:crypto';
import compress from '@fastify/compress';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge } from 'prom-client';
import { z } from 'zod';
import type { AccessTokenVerifier } from '../auth/access-token.js';
import type { Limiter } from '../auth/limiter.js';
import { requireAccessToken } from '../auth/require-access-token.js';
import { DEFAULT_REVOCATION_CACHE_MS } from '../auth/settings.js';
import type { Clock } from '../clock.js';
import { defaultEngineThreads, type EngineClient } from '../engine-client.js';
import { HttpError } from '../errors.js';
import type { Metrics } from '../metrics.js';
import type { Db } from '../storage/db.js';
import { ENGINE_VERSION } from './engine-version.js';
import { Catalog } from './enterprise/catalog.js';
import { enterpriseRoutes } from './enterprise/routes.js';
import { contentOpenApiDocument } from './openapi.js';
import { createRequestLimiter, limitOrThrow, RateLimitSchema } from './rate-limit.js';
import { compileSelection, selectFields, type Selection } from './fields.js';
import type { RawQuery } from './query.js';
import { negotiateEncoding, ReplyCache } from './reply-cache.js';
import { criteriaOf, firstProjects, requestOfGet, requestOfPost, type StructuredContentsRequest } from './request.js';
import { ContentService, ReplacedError, type Found } from './service.js';
import { ArticleStore } from './store.js';
import type { WikiClientOptions } from './upstream/index.js';

/** What a deployment (or a test) may tune; every field has a default. */
export const ContentSettingsSchema = z.object({
  /**
   * Worker threads that parse (engine-client.ts), at most; one starts with the server, the
   * others when it is busy. Default: 2 when the machine has at least 4 cores, else 1.
   */
  parseThreads: z.number().int().min(1).max(64).default(defaultEngineThreads),
  rateLimit: RateLimitSchema.partial().optional(),
  /** The project fetched upstream when the filters name neither project nor language. */
  defaultProject: z.string().default('enwiki'),
  /** Megabytes of recently served Article JSON kept in memory (the database keeps them all). */
  memoryCacheMb: z.number().nonnegative().default(64),
  /** Megabytes of reply bytes (joined, field-selected, compressed) kept in memory; 0 keeps none. */
  replyCacheMb: z.number().nonnegative().default(64),
  /**
   * How long a title's stored rows are reused without asking the database: the bound on how long
   * another process's import goes unseen (writes in this process are seen at once). Default: the
   * revocation window, the staleness the service already documents for tokens.
   */
  lookupCacheMs: z.number().int().nonnegative().default(DEFAULT_REVOCATION_CACHE_MS),
  /** `Cache-Control: private, max-age=N` on Article replies. */
  maxAgeSeconds: z.number().int().nonnegative().default(60),
});
export type ContentSettings = z.input<typeof ContentSettingsSchema> & {
  /** Upstream client options (User-Agent contact, timeouts, and in tests the fake wiki's origin). */
  wiki?: WikiClientOptions;
  /** The structured snapshots directory (snapshots/layout.ts); without it none are served. */
  snapshotsDir?: string;
};

export interface ContentRoutesOptions {
  db: Db;
  clock: Clock;
  verifier: AccessTokenVerifier;
  metrics: Metrics;
  offline: boolean;
  settings: ContentSettings;
  /** The deployment's shared limiter store: the request limit is kept there, else in memory (rate-limit.ts). */
  sharedLimiter?: Limiter | undefined;
  engine: EngineClient;
}

export const contentRoutes: FastifyPluginAsync<ContentRoutesOptions> = async (app, options) => {
  const { wiki, ...rest } = options.settings;
  const settings = ContentSettingsSchema.parse(rest);
  const store = new ArticleStore(options.db, options.clock);
  const service = new ContentService({
    store,
    clock: options.clock,
    lookupMaxAgeMs: settings.lookupCacheMs,
    engine: options.engine,
    metrics: options.metrics,
    wiki: options.offline ? undefined : (wiki ?? {}),
    defaultProject: settings.defaultProject,
    memoryCacheBytes: Math.floor(settings.memoryCacheMb * 1024 * 1024),
  });
  // Every article write through this database handle (imports over the admin socket, upstream
  // saves) drops what the service remembers of that title at once, and the stored projects and
  // languages kept for /v2/projects and /v2/languages. Caching a parse writes no article row.
  const catalog = new Catalog({ db: options.db, clock: options.clock, maxAgeMs: settings.lookupCacheMs });
  const unsubscribe = store.onWrite((project, title) => {
    service.invalidate(project, title);
    catalog.invalidate();
  });
  app.addHook('onClose', async () => unsubscribe());
  const replies = new ReplyCache(Math.floor(settings.replyCacheMb * 1024 * 1024));
  const replyLookups = replyCacheMetrics(options.metrics, replies);
  const limiter = createRequestLimiter(RateLimitSchema.parse(settings.rateLimit ?? {}), options.clock, options.sharedLimiter);
  const openapi = contentOpenApiDocument();
  const cacheControl = `private, max-age=${settings.maxAgeSeconds}`;

  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  // The body is validated after the token check, so a bad token is a 401 whatever the body, and
  // malformed JSON is a 422 like every other bad body.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, text, done) => done(null, text));

  const authenticate = requireAccessToken(options.verifier);
  /** GET reads the query, POST the body; both then answer alike (the same meaning, 422s and ETag). */
  const serve = (read: (request: FastifyRequest) => StructuredContentsRequest) => async (request: FastifyRequest, reply: FastifyReply) => {
    await limitOrThrow(limiter, options.metrics, request.accessClaims?.sub ?? request.ip);
    const asked = read(request);
    const selection = asked.fields === undefined ? undefined : compileSelection(asked.fields);
    // Once more if an article turned out replaced by another process since its title was looked
    // up in this one (that lookup is dropped by then, so the second answer has the new revision).
    for (let attempt = 1; ; attempt++) {
      try {
        return await answer(request, reply, asked, selection);
      } catch (error) {
        if (!(error instanceof ReplacedError) || attempt >= 2) throw error;
      }
    }
  };
  const answer = async (request: FastifyRequest, reply: FastifyReply, asked: StructuredContentsRequest, selection: Selection | undefined) => {
    const abort = abortOnDisconnect(reply);
    const found = await service.find(rawTitle(request), criteriaOf(asked), abort.signal).finally(abort.done);
    const articles = firstProjects(found, asked.limit);

    const key = replyKey(articles, selection);
    const etag = etagOf(key);
    reply.header('etag', etag).header('cache-control', cacheControl).header('vary', 'Authorization, Accept-Encoding');
    if (matches(request.headers['if-none-match'], etag)) return reply.status(304).send();
    const made = await replies.get(key, negotiateEncoding(request.headers['accept-encoding']), async () => {
      const texts = await Promise.all(articles.map(async (a) => (selection === undefined ? a.json() : selectFields(await a.json(), selection))));
      return `[${texts.join(',')}]`;
    });
    replyLookups.inc({ result: made.hit ? 'hit' : 'miss' });
    if (made.reply.encoding !== 'identity') reply.header('content-encoding', made.reply.encoding);
    return reply.type('application/json; charset=utf-8').send(made.reply.bytes);
  };
  const route = '/structured-contents/:article_name';
  // compress: false — the bytes are already in the coding the client asked for (see above).
  const routeOptions = { preHandler: authenticate, compress: false } as const;
  app.post(route, routeOptions, serve((request) => requestOfPost(request.body, request.query as RawQuery)));
  app.get(route, routeOptions, serve((request) => requestOfGet(request.query as RawQuery)));
  app.get('/openapi.json', async () => openapi);
  await app.register(enterpriseRoutes, { db: options.db, clock: options.clock, service, catalog, limiter, metrics: options.metrics, authenticate, cacheControl, snapshotsDir: options.settings.snapshotsDir });
};

/** The title segment as sent, still percent-encoded: normalizeTitle decodes it exactly once. */
function rawTitle(request: FastifyRequest): string {
  const path = request.url.split('?')[0] ?? '';
  const marker = '/structured-contents/';
  return path.slice(path.indexOf(marker) + marker.length);
}

/**
 * What determines a reply's bytes (before compression), written unambiguously: the engine
 * version, the field selection (by meaning: the order and overlap of `fields` do not matter) and
 * which revision of which article of which project, in reply order. The reply cache is keyed by
 * it, and the ETag is its hash, so the two can never disagree about what is the same reply.
 */
function replyKey(articles: readonly Found[], selection: Selection | undefined): string {
  return JSON.stringify([ENGINE_VERSION, selection === undefined ? '*' : selectionTree(selection), ...articles.map((a) => [a.project, a.title, a.revision])]);
}

/**
 * The selection as nested arrays of sorted keys. Not fields.ts's selectionKey text: a map key may
 * hold "," or "(" (`references.metadata.a,b` is one path), which that text cannot tell apart
 * from two paths, and two different selections must never share bytes.
 */
function selectionTree(selection: Selection): unknown[] {
  return [...selection.keys()].sort().map((key) => {
    const sub = selection.get(key)!;
    return sub === true ? key : [key, selectionTree(sub)];
  });
}

/**
 * A weak validator: the same reply key gives the same bytes (before compression). The one-shot
 * `hash` costs a third of createHash/update/digest, which was the largest cost of a cached request
 * after the write itself.
 */
function etagOf(key: string): string {
  return `W/"${hash('sha256', key, 'base64url').slice(0, 27)}"`;
}

/** The reply cache in /metrics: its size against the bound, and how often it answered. */
function replyCacheMetrics(metrics: Metrics, replies: ReplyCache): Counter<'result'> {
  new Gauge({
    name: 'wikistruct_reply_cache_bytes',
    help: 'Bytes of /v2 replies held in memory (compressed as sent), counted against replyCacheMb',
    registers: [metrics.registry],
    collect() {
      this.set(replies.bytes);
    },
  });
  return new Counter({
    name: 'wikistruct_reply_cache_total',
    help: '/v2 replies sent from stored bytes (hit) or made and stored (miss)',
    labelNames: ['result'],
    registers: [metrics.registry],
  });
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

/**
 * Aborts when the client goes away before the reply is written, so it stops waiting on upstream.
 * The signal is made on first use only: most requests never go upstream.
 */
function abortOnDisconnect(reply: FastifyReply): { signal: () => AbortSignal; done: () => void } {
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
