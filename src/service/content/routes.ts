/**
 * The /v2 routes: POST and GET /structured-contents/{article_name} and the OpenAPI document.
 *
 * Articles are sent as the stored JSON text, never through a fastify response schema: a schema
 * would re-serialise (slow for big Articles) and silently drop fields it does not declare inside
 * the recursive Part tree.
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import compress from '@fastify/compress';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AccessTokenVerifier } from '../auth/access-token.js';
import { requireAccessToken } from '../auth/require-access-token.js';
import type { Clock } from '../clock.js';
import { HttpError, tooManyRequests } from '../errors.js';
import type { Metrics } from '../metrics.js';
import type { Db } from '../storage/db.js';
import { ENGINE_VERSION } from './engine-version.js';
import { contentOpenApiDocument } from './openapi.js';
import { createArticleParser } from './parser.js';
import { RateLimiter, RateLimitSchema } from './rate-limit.js';
import { compileSelection, selectFields, selectionKey } from './fields.js';
import type { RawQuery } from './query.js';
import { criteriaOf, firstProjects, requestOfGet, requestOfPost, type StructuredContentsRequest } from './request.js';
import { ContentService, type Found } from './service.js';
import { ArticleStore } from './store.js';
import type { WikiClientOptions } from './upstream/index.js';

/** What a deployment (or a test) may tune; every field has a default. */
export const ContentSettingsSchema = z.object({
  /**
   * Worker threads that parse; 0 parses on the event loop. Default: 2 when the machine has at
   * least 4 cores, else 0 (on 2 busy cores, threads only added copying: docs/content-service.md).
   */
  parseThreads: z.number().int().min(0).max(64).default(() => Math.max(0, Math.min(2, availableParallelism() - 2))),
  rateLimit: RateLimitSchema.partial().optional(),
  /** The project fetched upstream when the filters name neither project nor language. */
  defaultProject: z.string().default('enwiki'),
  /** Megabytes of recently served Article JSON kept in memory (the database keeps them all). */
  memoryCacheMb: z.number().nonnegative().default(64),
  /** `Cache-Control: private, max-age=N` on Article replies. */
  maxAgeSeconds: z.number().int().nonnegative().default(60),
});
export type ContentSettings = z.input<typeof ContentSettingsSchema> & {
  /** Upstream client options (User-Agent contact, timeouts, and in tests the fake wiki's origin). */
  wiki?: WikiClientOptions;
};

export interface ContentRoutesOptions {
  db: Db;
  clock: Clock;
  verifier: AccessTokenVerifier;
  metrics: Metrics;
  offline: boolean;
  settings: ContentSettings;
}

export const contentRoutes: FastifyPluginAsync<ContentRoutesOptions> = async (app, options) => {
  const { wiki, ...rest } = options.settings;
  const settings = ContentSettingsSchema.parse(rest);
  const parser = await createArticleParser(settings.parseThreads);
  app.addHook('onClose', () => parser.close());
  const service = new ContentService({
    store: new ArticleStore(options.db, options.clock),
    parser,
    metrics: options.metrics,
    wiki: options.offline ? undefined : (wiki ?? {}),
    defaultProject: settings.defaultProject,
    memoryCacheBytes: settings.memoryCacheMb * 1024 * 1024,
  });
  const limiter = new RateLimiter(RateLimitSchema.parse(settings.rateLimit ?? {}), options.clock);
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
    const wait = limiter.take(request.accessClaims?.sub ?? request.ip);
    if (wait > 0) {
      options.metrics.rateLimited.inc();
      throw tooManyRequests(`rate limit exceeded; retry in ${wait} s`, wait);
    }
    const asked = read(request);
    const selection = asked.fields === undefined ? undefined : compileSelection(asked.fields);
    const abort = abortOnDisconnect(reply);
    const found = await service.find(rawTitle(request), criteriaOf(asked), abort.signal).finally(abort.done);
    const articles = firstProjects(found, asked.limit);

    const etag = etagOf(articles, selection === undefined ? '*' : selectionKey(selection));
    reply.header('etag', etag).header('cache-control', cacheControl).header('vary', 'Authorization, Accept-Encoding');
    if (matches(request.headers['if-none-match'], etag)) return reply.status(304).send();
    const texts = articles.map((a) => (selection === undefined ? a.json : selectFields(a.json, selection)));
    return reply.type('application/json; charset=utf-8').send(`[${texts.join(',')}]`);
  };
  const route = '/structured-contents/:article_name';
  app.post(route, { preHandler: authenticate }, serve((request) => requestOfPost(request.body, request.query as RawQuery)));
  app.get(route, { preHandler: authenticate }, serve((request) => requestOfGet(request.query as RawQuery)));
  app.get('/openapi.json', async () => openapi);
};

/** The title segment as sent, still percent-encoded: normalizeTitle decodes it exactly once. */
function rawTitle(request: FastifyRequest): string {
  const path = request.url.split('?')[0] ?? '';
  const marker = '/structured-contents/';
  return path.slice(path.indexOf(marker) + marker.length);
}

/** A weak validator: the same revisions, engine and field selection give the same bytes (before compression). */
function etagOf(found: readonly Found[], selection: string): string {
  const hash = createHash('sha256');
  hash.update(ENGINE_VERSION);
  hash.update(`\u0000${selection}`);
  for (const f of found) hash.update(`\u0000${f.project}:${f.revision}`);
  return `W/"${hash.digest('base64url').slice(0, 27)}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

/** Aborts when the client goes away before the reply is written, so it stops waiting on upstream. */
function abortOnDisconnect(reply: FastifyReply): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const onClose = (): void => {
    if (!reply.raw.writableFinished) controller.abort(new HttpError(499, 'client closed the connection'));
  };
  reply.raw.on('close', onClose);
  return { signal: controller.signal, done: () => reply.raw.off('close', onClose) };
}
