import { randomUUID } from 'node:crypto';
import { maxHeaderSize } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { createAccessTokenVerifier, type AccessTokenVerifier } from './auth/access-token.js';
import { createTokenMinter } from './auth/jwt.js';
import type { KeySecret } from './auth/key-secret.js';
import { KeyStore } from './auth/keys.js';
import { purgeExpired, type Purged } from './auth/purge.js';
import { AuthService } from './auth/service.js';
import { DEFAULT_THROTTLE, type ThrottleSettings } from './auth/settings.js';
import { systemClock, type Clock } from './clock.js';
import { clientErrorHandler, refuseConnect, refuseExpectation, refuseRequestHead } from './client-errors.js';
import { HttpError } from './errors.js';
import type { Mailer } from './mailer.js';
import { ContentSettingsSchema, createContentPart, type ContentSettings, type ExplorerSettings } from './content/part.js';
import { createEngineClient, type EngineClient } from './engine-client.js';
import { explorerAssets } from './explorer/assets.js';
import { createMetrics, observeRequests } from './metrics.js';
import { AllowedMethods } from './allowed-methods.js';
import type { ContentContext, RouteContext } from './routes/context.js';
import { v1OpenApiDocument, v2OpenApiDocument } from './routes/openapi.js';
import { registerRoutes } from './routes/register.js';
import { ROUTES } from './routes/table.js';
import type { Db } from './storage/db.js';
import { resolveTimeouts, type HttpTimeouts } from './timeouts.js';
import { embeddedSharedState, type SharedState } from './shared-state.js';
import { shareArticleWrites } from './content/store.js';

/** Which route groups a process serves: both by default, or one of them alone. */
export type ServiceParts = 'all' | 'auth' | 'content';

export interface AppDeps {
  db: Db;
  mailer: Mailer;
  /**
   * What the private signing keys are sealed under in the database (auth/key-secret.ts): every
   * process on one database needs the same one.
   */
  keySecret: KeySecret;
  logger: FastifyBaseLogger;
  clock?: Clock;
  /** `iss` of every token; verifiers require it. */
  issuer?: string;
  only?: ServiceParts;
  throttle?: Partial<ThrottleSettings>;
  /** Bound on cross-process revocation staleness; see auth/access-token.ts. */
  revocationCacheMs?: number;
  /** Serve without outbound network (used by the content API). Accepted now, not used by auth. */
  offline?: boolean;
  /** Honour X-Forwarded-For for the client address (only behind a trusted proxy). */
  trustProxy?: boolean;
  /** Content API tuning: parse threads, rate limit, upstream client options (see content/part.ts). */
  content?: ContentSettings;
  /** How long the server waits for clients (see timeouts.ts); every field has a default. */
  timeouts?: Partial<HttpTimeouts>;
  /**
   * The engine client every parse of the content API runs on (engine-client.ts); the caller owns
   * and closes it. Default: one of `content.parseThreads` threads, closed with the app.
   */
  engine?: EngineClient;
  /** The explorer: /v2/parse limits and the built page's directory (content/part.ts); all defaulted. */
  explorer?: ExplorerSettings;
  /**
   * Limiter store and bus shared with the deployment's other processes (shared-state.ts); the
   * caller owns and closes it. Default: one process on its own database.
   */
  shared?: SharedState;
}

export interface App {
  fastify: FastifyInstance;
  /** The helper every route that needs a signed-in caller uses (the content API too). */
  verifier: AccessTokenVerifier;
  keys: KeyStore;
  /** Deletes expired tokens, sessions, codes and throttle counters; the server runs it hourly. */
  purge(): Promise<Purged>;
  /** Waits for background work (mails) started by requests. */
  drain(): Promise<void>;
}

export const BODY_LIMIT_BYTES = 16 * 1024;
export const DEFAULT_ISSUER = 'wikistruct';
/**
 * The longest path parameter (the /v2 title, still percent-encoded). A MediaWiki title is at most
 * 255 bytes of UTF-8, 765 characters with every byte escaped; fastify's default of 100 refused
 * legal titles. Longer ones still reach the title rules, which name the 255-byte limit.
 */
export const MAX_PARAM_CHARS = 1024;
/** Longest path shown in a 404/405 message. */
const SHOWN_PATH_CHARS = 200;

/**
 * Builds the HTTP application: shared error handling, health check, and the route plugins.
 * Owns no process concerns (listening, signals, the database's lifetime): see server.ts.
 */
export async function buildApp(deps: AppDeps): Promise<App> {
  const clock = deps.clock ?? systemClock;
  const issuer = deps.issuer ?? DEFAULT_ISSUER;
  const only = deps.only ?? 'all';
  const shared = deps.shared ?? embeddedSharedState(deps.db, clock);
  const keys = new KeyStore(deps.db, clock, deps.keySecret, shared.bus);
  const sealed = await keys.sealClearKeys();
  if (sealed > 0) deps.logger.warn({ sealed }, 'signing keys stored in the clear by an earlier version were sealed and retired; tokens they signed stay valid until they expire');
  await keys.currentSigner(); // generate the first key at start, not during the first login
  const verifier = createAccessTokenVerifier({
    db: deps.db,
    keys,
    clock,
    issuer,
    bus: shared.bus,
    ...(deps.revocationCacheMs === undefined ? {} : { revocationCacheMs: deps.revocationCacheMs }),
  });

  const timeouts = resolveTimeouts(deps.timeouts);
  const fastify = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    requestIdHeader: false, // ids are ours: a client-chosen id could forge log lines
    trustProxy: deps.trustProxy ?? false,
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PARAM_CHARS },
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
      // Node would answer a missing Host with a bare 400; the onRequest hook below sends a Message.
      requireHostHeader: false,
    },
    // Requests Node's parser refuses never reach fastify: answered here with a Message.
    clientErrorHandler: clientErrorHandler(deps.logger, maxHeaderSize),
    // Requests the router refuses (bad percent-escapes, an over-long title) likewise.
    frameworkErrors: (error, request, reply) => {
      const { status, message } = frameworkReply(error);
      request.log.info({ code: error.code, status }, 'request refused by the router');
      // fastify types this reply generically (any route's schema); it is a plain reply here.
      void (reply as unknown as FastifyReply).status(status).send({ message, status });
    },
  });
  // Every field is kept (Node drops those past 2,000 silently), so refuseRequestHead counts them all.
  fastify.server.maxHeadersCount = 0;
  fastify.server.on('connect', refuseConnect);
  fastify.server.on('checkExpectation', refuseExpectation);
  // Every route, for 405 replies that name the methods a path has (allowed-methods.ts).
  const routes = new AllowedMethods();
  fastify.addHook('onRoute', (route) => routes.add(route.method, route.url ?? route.path));
  // No route for this method and path: answered before the body is read, so a wrong method or
  // path is a 404/405, never "request body is not valid JSON".
  fastify.addHook('onRequest', async (request) => {
    const refused = refuseRequestHead(request.raw, maxHeaderSize);
    if (refused !== undefined) throw new HttpError(refused.status, refused.message, undefined, { connection: 'close' });
    // RFC 9112 §3.2: a server MUST answer 400 to an HTTP/1.1 request without Host.
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') throw new HttpError(400, 'the Host header is required in HTTP/1.1');
    if (!request.is404) return;
    const path = request.url.split('?')[0] ?? '';
    const shown = path.length > SHOWN_PATH_CHARS ? `${path.slice(0, SHOWN_PATH_CHARS)}…` : path;
    const allowed = routes.allowed(path);
    if (allowed.length === 0) throw new HttpError(404, `no route for ${request.method} ${shown}`);
    const allow = allowed.join(', ');
    throw new HttpError(405, `method ${request.method} is not allowed on ${shown}; allowed: ${allow}`, undefined, { allow });
  });
  // Graceful shutdown: a request that arrives on an open keep-alive connection while closing is
  // still served (as a normal reply, not fastify's bare 503), and every reply sent while closing
  // asks the client to close the connection, so close() need not wait out the keep-alive timeout.
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
  });
  fastify.setErrorHandler((error, request, reply) => {
    const { status, message } = toReply(error, request.routeOptions.config as { bodyTooLarge?: string });
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (error instanceof HttpError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      reply.headers(error.headers);
    }
    return reply.status(status).send({ message, status });
  });
  fastify.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ message: `no route for ${request.method} ${request.url.split('?')[0]}`, status: 404 }),
  );
  const metrics = createMetrics();
  observeRequests(fastify, metrics);
  // Article writes of other processes reach this one's caches (and this one's reach theirs).
  const detachWrites = shareArticleWrites(deps.db, shared.bus);
  fastify.addHook('onClose', async () => {
    detachWrites();
    if (deps.shared === undefined) await shared.close();
  });

  const throttle = { ...DEFAULT_THROTTLE, ...deps.throttle };
  const auth =
    only === 'content'
      ? undefined
      : new AuthService({
          db: deps.db,
          clock,
          tokens: createTokenMinter(keys, clock, issuer),
          verifier,
          mailer: deps.mailer,
          throttle,
          limiter: shared.limiter,
          log: deps.logger,
        });
  const content = only === 'auth' ? undefined : contentPart(fastify, deps, clock, metrics, shared);
  const ctx: RouteContext = { db: deps.db, clock, metrics, auth, keys, content, openapi: { v1: v1OpenApiDocument(ROUTES), v2: v2OpenApiDocument(ROUTES) } };
  await registerRoutes(fastify, ROUTES, ctx, verifier);
  // The explorer page signs in through /v1 and reads /v2: served only where both are.
  if (only === 'all') await fastify.register(explorerAssets, { dir: deps.explorer?.assetsDir });

  return {
    fastify,
    verifier,
    keys,
    purge: () => purgeExpired(deps.db, clock, throttle.familiarForMs),
    drain: async () => {
      await auth?.drainMail();
    },
  };
}

/**
 * The content API's shared objects (content/part.ts), with the engine client every parse of this
 * process runs on: the caller's, or one of `parseThreads` threads of which one starts now and the
 * others when it is busy (an idle worker holds tens of MB).
 */
function contentPart(fastify: FastifyInstance, deps: AppDeps, clock: Clock, metrics: ReturnType<typeof createMetrics>, shared: SharedState): ContentContext {
  let engine = deps.engine;
  if (engine === undefined) {
    const { parseThreads } = ContentSettingsSchema.pick({ parseThreads: true }).parse({ parseThreads: deps.content?.parseThreads });
    const own = createEngineClient({ threads: parseThreads, initialThreads: 1 });
    fastify.addHook('onClose', () => own.close());
    engine = own;
  }
  const { content, close } = createContentPart({
    db: deps.db,
    clock,
    metrics,
    engine,
    offline: deps.offline ?? false,
    settings: deps.content ?? {},
    explorer: deps.explorer ?? {},
    // Per-client request limits live where every process sees them when several serve.
    sharedLimiter: shared.requestLimitShared ? shared.limiter : undefined,
  });
  fastify.addHook('onClose', async () => close());
  return content;
}

/** Messages for fastify's own client errors (body parsing), by code; other 4xx keep fastify's message. */
const FASTIFY_MESSAGES: Readonly<Record<string, string>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: `request body is larger than ${BODY_LIMIT_BYTES} bytes`,
  FST_ERR_CTP_INVALID_JSON_BODY: 'request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request body is empty but Content-Type says application/json',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported Content-Type: send application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request body size does not match Content-Length',
};

/**
 * The reply for an error: ours as they are, fastify's client errors by status, the rest a 500.
 * A route with a body limit of its own names it (`bodyTooLarge`, routes/route.ts).
 */
function toReply(error: unknown, route: { bodyTooLarge?: string } | undefined): { status: number; message: string } {
  if (error instanceof HttpError) return { status: error.status, message: error.message };
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' && route?.bodyTooLarge !== undefined) return { status: 413, message: route.bodyTooLarge };
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const known = typeof code === 'string' ? FASTIFY_MESSAGES[code] : undefined;
    // The JSON parser's own SyntaxError (also prototype poisoning) carries no code.
    if (known === undefined && error instanceof SyntaxError) return { status, message: 'request body is not valid JSON' };
    return { status, message: known ?? (error as Error).message };
  }
  return { status: 500, message: 'internal server error' };
}

/** Errors of fastify's router (before any route or hook runs). */
function frameworkReply(error: FastifyError): { status: number; message: string } {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return { status: 400, message: 'malformed URL: a %-escape in the path is not valid (a "%" must start "%XX" encoding UTF-8)' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, message: `the title in the URL is longer than ${MAX_PARAM_CHARS} characters (MediaWiki titles are at most 255 bytes of UTF-8)` };
    default:
      return error.statusCode !== undefined && error.statusCode < 500
        ? { status: error.statusCode, message: error.message }
        : { status: 500, message: 'internal server error' };
  }
}
