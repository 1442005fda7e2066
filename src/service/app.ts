import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { createHttpServer } from './http-server.js';
import { createAccessTokenVerifier, type AccessTokenVerifier } from './auth/access-token.js';
import { createTokenMinter } from './auth/jwt.js';
import type { KeySecret } from './auth/key-secret.js';
import { KeyStore } from './auth/keys.js';
import { purgeExpired, type Purged } from './auth/purge.js';
import { AuthService } from './auth/service.js';
import { DEFAULT_THROTTLE, type ThrottleSettings } from './auth/settings.js';
import { systemClock, type Clock } from './clock.js';
import type { Mailer } from './mailer.js';
import { ContentSettingsSchema, createContentPart, type ContentSettings, type ExplorerSettings } from './content/part.js';
import { createEngineClient, type EngineClient } from './engine-client.js';
import { explorerAssets } from './explorer/assets.js';
import { createMetrics, observeRequests } from './metrics.js';
import type { ContentContext, RouteContext } from './routes/context.js';
import { v1OpenApiDocument, v2OpenApiDocument } from './routes/openapi.js';
import { registerRoutes } from './routes/register.js';
import { ROUTES } from './routes/table.js';
import type { Db } from './storage/db.js';
import { resolveTimeouts, type HttpTimeouts } from './timeouts.js';
import { embeddedSharedState, type SharedState } from './shared-state.js';
import { shareArticleWrites } from './content/store.js';
import { SnapshotScheduler, type ScheduleSettings } from './snapshots/scheduler.js';
import { startMark } from './start-trace.js';

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
  /**
   * Honour X-Forwarded-For for the client address: `true` for any peer (tests only), or the
   * addresses/CIDR ranges of the trusted proxies (`serve --trust-proxy`).
   */
  trustProxy?: boolean | readonly string[];
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
  /**
   * Build snapshots in the background (snapshots/scheduler.ts): on start when some are missing,
   * on a schedule, after an import. Undefined: never (only `wikistruct snapshot build`). Needs
   * the content part and `content.snapshotsDir`.
   */
  snapshots?: ScheduleSettings;
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
  /** The background snapshot builds, when `snapshots` was given (started once the app is ready). */
  snapshots: SnapshotScheduler | undefined;
}

export const DEFAULT_ISSUER = 'wikistruct';

/**
 * Builds the HTTP application: the server (http-server.ts), the route context (the auth service,
 * the content part and its engine client) and the routes of the table (routes/table.ts). Owns no
 * process concerns (listening, signals, the database's lifetime): see server.ts.
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
  startMark('signing key ready');
  const verifier = createAccessTokenVerifier({
    db: deps.db,
    keys,
    clock,
    issuer,
    bus: shared.bus,
    ...(deps.revocationCacheMs === undefined ? {} : { revocationCacheMs: deps.revocationCacheMs }),
  });

  const fastify = createHttpServer(deps.logger, resolveTimeouts(deps.timeouts), deps.trustProxy ?? false);
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
  const snapshots = content?.snapshotsDir === undefined || deps.snapshots === undefined
    ? undefined
    : new SnapshotScheduler({ ...deps.snapshots, db: deps.db, clock, dir: content.snapshotsDir, service: content.service, logger: deps.logger });
  if (snapshots !== undefined) {
    fastify.addHook('onReady', async () => snapshots.start());
    // Before the engine's workers and the database go (onClose): a build under way stops at its next page.
    fastify.addHook('preClose', async () => snapshots.close());
  }
  const ctx: RouteContext = { db: deps.db, clock, metrics, auth, keys, content, openapi: { v1: v1OpenApiDocument(ROUTES), v2: v2OpenApiDocument(ROUTES) } };
  startMark('content part made');
  await registerRoutes(fastify, ROUTES, ctx, verifier);
  startMark('routes registered');
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
    snapshots,
  };
}

/**
 * The content API's shared objects (content/part.ts), with the engine client every parse of this
 * process runs on: the caller's, or one of `parseThreads` threads that start when a parse finds
 * the running ones busy, the first with the first parse (an idle worker holds ~35 MB, and most
 * requests are answered from the store without one).
 */
function contentPart(fastify: FastifyInstance, deps: AppDeps, clock: Clock, metrics: ReturnType<typeof createMetrics>, shared: SharedState): ContentContext {
  let engine = deps.engine;
  if (engine === undefined) {
    const { parseThreads } = ContentSettingsSchema.pick({ parseThreads: true }).parse({ parseThreads: deps.content?.parseThreads });
    const own = createEngineClient({ threads: parseThreads, initialThreads: 0 });
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
    log: deps.logger,
  });
  fastify.addHook('onClose', async () => close());
  return content;
}
