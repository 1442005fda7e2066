import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { createAccessTokenVerifier, type AccessTokenVerifier } from './auth/access-token.js';
import { createTokenMinter } from './auth/jwt.js';
import { KeyStore } from './auth/keys.js';
import { purgeExpired, type Purged } from './auth/purge.js';
import { authOperations, authRoutes } from './auth/routes.js';
import { AuthService } from './auth/service.js';
import { DEFAULT_THROTTLE, type ThrottleSettings } from './auth/settings.js';
import { systemClock, type Clock } from './clock.js';
import { HttpError } from './errors.js';
import type { Mailer } from './mailer.js';
import { contentRoutes, type ContentSettings } from './content/routes.js';
import { createMetrics, observeRequests } from './metrics.js';
import { openApiDocument } from './openapi.js';
import type { Db } from './storage/db.js';
import { MIGRATIONS } from './storage/migrations.js';

/** Which route groups a process serves: both by default, or one of them alone. */
export type ServiceParts = 'all' | 'auth' | 'content';

export interface AppDeps {
  db: Db;
  mailer: Mailer;
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
  /** Content API tuning: parse threads, rate limit, upstream client options (see content/routes.ts). */
  content?: ContentSettings;
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
 * Builds the HTTP application: shared error handling, health check, and the route plugins.
 * Owns no process concerns (listening, signals, the database's lifetime): see server.ts.
 */
export async function buildApp(deps: AppDeps): Promise<App> {
  const clock = deps.clock ?? systemClock;
  const issuer = deps.issuer ?? DEFAULT_ISSUER;
  const only = deps.only ?? 'all';
  const keys = new KeyStore(deps.db, clock);
  await keys.currentSigner(); // generate the first key at start, not during the first login
  const verifier = createAccessTokenVerifier({
    db: deps.db,
    keys,
    clock,
    issuer,
    ...(deps.revocationCacheMs === undefined ? {} : { revocationCacheMs: deps.revocationCacheMs }),
  });

  const fastify = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    requestIdHeader: false, // ids are ours: a client-chosen id could forge log lines
    trustProxy: deps.trustProxy ?? false,
    return503OnClosing: false,
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
    const { status, message } = toReply(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (error instanceof HttpError && error.retryAfterSeconds !== undefined) {
      reply.header('retry-after', String(error.retryAfterSeconds));
    }
    return reply.status(status).send({ message, status });
  });
  fastify.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ message: `no route for ${request.method} ${request.url.split('?')[0]}`, status: 404 }),
  );
  fastify.get('/healthz', async () => {
    await deps.db.query('SELECT 1');
    return { status: 'ok' };
  });
  fastify.get('/readyz', async (_request, reply) => {
    const applied = new Set((await deps.db.query<{ id: string }>('SELECT id FROM schema_migrations')).map((r) => r.id));
    const missing = MIGRATIONS.filter((m) => !applied.has(m.id)).map((m) => m.id);
    if (missing.length > 0) return reply.status(503).send({ message: `migrations not applied: ${missing.join(', ')}`, status: 503 });
    return { status: 'ready' };
  });
  const metrics = createMetrics();
  observeRequests(fastify, metrics);

  const throttle = { ...DEFAULT_THROTTLE, ...deps.throttle };
  let service: AuthService | undefined;
  if (only !== 'content') {
    service = new AuthService({
      db: deps.db,
      clock,
      tokens: createTokenMinter(keys, clock, issuer),
      verifier,
      mailer: deps.mailer,
      throttle,
      log: deps.logger,
    });
    const operations = authOperations(service);
    const document = openApiDocument('/v1', operations);
    await fastify.register(authRoutes, { prefix: '/v1', operations, keys, openapi: () => document });
  }

  // ── Content API ──────────────────────────────────────────────────────────────────────────────
  if (only !== 'auth') {
    await fastify.register(contentRoutes, {
      prefix: '/v2',
      db: deps.db,
      clock,
      verifier,
      metrics,
      offline: deps.offline ?? false,
      settings: deps.content ?? {},
    });
  }
  // ─────────────────────────────────────────────────────────────────────────────────────────────

  return {
    fastify,
    verifier,
    keys,
    purge: () => purgeExpired(deps.db, clock, throttle.windowMs),
    drain: async () => {
      await service?.drainMail();
    },
  };
}

/** The reply for an error: ours as they are, fastify's client errors by status, the rest a 500. */
function toReply(error: unknown): { status: number; message: string } {
  if (error instanceof HttpError) return { status: error.status, message: error.message };
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { status: 413, message: `request body is larger than ${BODY_LIMIT_BYTES} bytes` };
  }
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, message: status === 400 ? 'request body is not valid JSON' : (error as Error).message };
  }
  return { status: 500, message: 'internal server error' };
}
