/**
 * The content API (/v2) as a part of the app: what a deployment (or a test) may tune, and the
 * objects its routes share (routes/context.ts), made once per app.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge } from 'prom-client';
import { z } from 'zod';
import type { Limiter } from '../auth/limiter.js';
import { DEFAULT_REVOCATION_CACHE_MS } from '../auth/settings.js';
import type { Clock } from '../clock.js';
import { defaultEngineThreads, type EngineClient } from '../engine-client.js';
import type { Metrics } from '../metrics.js';
import type { ContentContext } from '../routes/context.js';
import type { Db } from '../storage/db.js';
import { Catalog } from './enterprise/catalog.js';
import { createRequestLimiter, RateLimitSchema, REQUEST_LIMIT_KEYS } from './rate-limit.js';
import { articleTag, ReplyCache } from './reply-cache.js';
import { ContentService, DEFAULT_MAX_AGE_MS } from './service.js';
import { ArticleStore } from './store.js';
import { ConfiguredWikis } from './upstream/configured-wikis.js';
import { userAgent, WikiClient, type WikiClientOptions } from './upstream/index.js';
import { ChangeFollower, type FollowOptions } from './follow.js';
import { FollowPosition } from './follow-position.js';
import { bulkhead, BulkheadRejectedError } from 'cockatiel';

/** How long a configured wiki that did not say what it is stays listed by its code alone. */
const SITEINFO_RETRY_MS = 60_000;

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
  /**
   * `Cache-Control: private, max-age=N` on the cacheable /v2 replies. On Article replies N counts
   * from when the wiki last confirmed the article, as their `Age` does: a client keeps them N
   * seconds from receiving them.
   */
  maxAgeSeconds: z.number().int().nonnegative().default(60),
  /**
   * `--max-age`: how long after its wiki last confirmed a stored article it is served without
   * asking again; then it is still served at once, and revalidated in the background
   * (freshness.ts). 0: revalidate on every request. Unused when offline.
   */
  staleAfterMs: z.number().int().nonnegative().default(DEFAULT_MAX_AGE_MS),
  /**
   * The size of a snapshot's chunks (`/v2/snapshots/{identifier}/chunks`): its file cut into
   * consecutive pieces of this many bytes, the last one shorter. Default 64 MiB.
   */
  snapshotChunkBytes: z.number().int().positive().default(64 * 1024 * 1024),
});
export type ContentSettings = z.input<typeof ContentSettingsSchema> & {
  /** Upstream client options (User-Agent contact, timeouts, and in tests the fake wiki's origin). */
  wiki?: WikiClientOptions;
  /** The structured snapshots directory (snapshots/layout.ts); without it none are served. */
  snapshotsDir?: string;
  /** `serve --follow`: the stream of page changes to follow (follow.ts); unused when offline. */
  follow?: FollowSettings;
};

/** The followed stream: its URL, and (tests) its backoff, a hook on each reconnection and how often its position is saved. */
export type FollowSettings = Pick<FollowOptions, 'url' | 'initialDelayMs' | 'maxDelayMs' | 'onReconnect' | 'onOpen'> & {
  /** How often the last event id is saved at most (follow-position.ts). Default 5 s. */
  saveEveryMs?: number;
};

/** How often the followed stream's position is saved, at most: a restarted server replays up to this much. */
const FOLLOW_SAVE_EVERY_MS = 5_000;

/** Changes refreshed at once, at most, and waiting, at most: a burst beyond is dropped (their age revalidates them later). */
const FOLLOW_CONCURRENCY = 4;
const FOLLOW_QUEUE = 10_000;

export const ExplorerSettingsSchema = z.object({
  /** Largest html or wikitext `POST /v2/parse` accepts, in UTF-8 bytes. The largest corpus page is 3 MB. */
  maxInputBytes: z.number().int().positive().default(8 * 1024 * 1024),
  /**
   * The rate limit of /v2/parse and /v2/source: fewer than the content API's cached reads (each
   * is a parse): a person pasting pages never comes near it, a script looping over it does.
   */
  rateLimit: RateLimitSchema.partial().optional(),
});
export type ExplorerSettings = z.input<typeof ExplorerSettingsSchema> & {
  /** The built explorer page (default: dist/explorer of this installation); served by explorer/assets.ts. */
  assetsDir?: string;
};

const DEFAULT_PARSE_RATE = { perSecond: 1, burst: 20 };

export interface ContentPartOptions {
  db: Db;
  clock: Clock;
  metrics: Metrics;
  engine: EngineClient;
  offline: boolean;
  settings: ContentSettings;
  explorer: ExplorerSettings;
  /** The deployment's shared limiter store: request limits are kept there, else in memory (rate-limit.ts). */
  sharedLimiter: Limiter | undefined;
  /** Where background work (revalidation, following) reports its failures. */
  log?: FastifyBaseLogger;
}

/** The content routes' shared objects, and what to do when the app closes. */
export function createContentPart(options: ContentPartOptions): { content: ContentContext; close: () => Promise<void> } {
  const { wiki, snapshotsDir, follow, ...rest } = options.settings;
  const settings = ContentSettingsSchema.parse(rest);
  const explorer = ExplorerSettingsSchema.parse(options.explorer);
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
    maxAgeMs: settings.staleAfterMs,
    ...(options.log === undefined ? {} : { onRevalidationFailure: (project: string, title: string, error: unknown) => options.log?.warn({ err: error, project, title }, 'revalidating a stored article failed; it is served as stored') }),
  });
  // Every article write through this database handle (imports over the admin socket, upstream
  // saves) drops what the service remembers of that title at once, and the stored projects and
  // languages kept for /v2/projects and /v2/languages. Caching a parse writes no article row.
  const upstreams = wiki?.upstreams ?? [];
  const configured =
    upstreams.length === 0
      ? undefined
      : new ConfiguredWikis({ upstreams, client: options.offline ? undefined : new WikiClient(wiki), clock: options.clock, retryMs: SITEINFO_RETRY_MS });
  const catalog = new Catalog({
    db: options.db,
    clock: options.clock,
    maxAgeMs: settings.lookupCacheMs,
    ...(configured === undefined ? {} : { configured: () => configured.projects() }),
  });
  const replies = new ReplyCache(Math.floor(settings.replyCacheMb * 1024 * 1024));
  const unsubscribe = store.onWrite((project, title) => {
    service.invalidate(project, title);
    catalog.invalidate();
    // Its replies name the replaced revision: never asked for again, so their bytes go now.
    replies.forget(articleTag(project, title));
  });
  const content: ContentContext = {
    service,
    store,
    catalog,
    engine: options.engine,
    limiter: createRequestLimiter(RateLimitSchema.parse(settings.rateLimit ?? {}), options.clock, options.sharedLimiter),
    parseLimiter: createRequestLimiter(RateLimitSchema.parse({ ...DEFAULT_PARSE_RATE, ...explorer.rateLimit }), options.clock, options.sharedLimiter, REQUEST_LIMIT_KEYS.parse),
    replies,
    replyLookups: replyCacheMetrics(options.metrics, replies),
    cacheControl: `private, max-age=${settings.maxAgeSeconds}`,
    clientMaxAgeSeconds: settings.maxAgeSeconds,
    snapshotsDir,
    snapshotChunkBytes: settings.snapshotChunkBytes,
    maxInputBytes: explorer.maxInputBytes,
  };
  const following = follow === undefined || service.freshness === undefined ? undefined : followChanges(follow, wiki, service, catalog, options);
  return {
    content,
    close: async () => {
      following?.follower.close();
      unsubscribe();
      // Where it stopped, for the next start.
      await following?.position.flush();
    },
  };
}

/**
 * Starts following `follow.url`: each change to an article of a project the store holds is
 * refreshed (ContentService.followChange), a few at a time.
 */
function followChanges(
  follow: FollowSettings,
  wiki: WikiClientOptions | undefined,
  service: ContentService,
  catalog: Catalog,
  { db, clock, log }: Pick<ContentPartOptions, 'db' | 'clock' | 'log'>,
): { follower: ChangeFollower; position: FollowPosition } {
  const limit = bulkhead(FOLLOW_CONCURRENCY, FOLLOW_QUEUE);
  const { saveEveryMs, ...settings } = follow;
  const position = new FollowPosition({
    db,
    clock,
    stream: follow.url,
    saveEveryMs: saveEveryMs ?? FOLLOW_SAVE_EVERY_MS,
    onError: (error) => log?.warn({ err: error }, 'saving the position in the followed change stream failed'),
  });
  const follower = new ChangeFollower({
    ...settings,
    onEventId: (id) => position.seen(id),
    userAgent: wiki?.userAgent ?? userAgent(wiki?.contact),
    onChange: (change) => {
      limit
        .execute(async () => {
          // Stored projects only: the catalog lists every Wikimedia wiki, the stream carries them all.
          const projects = await catalog.storedProjects();
          if (!projects.some((p) => p.identifier === change.project)) return;
          await service.followChange(change);
        })
        .catch((error: unknown) => {
          if (error instanceof BulkheadRejectedError) log?.warn({ project: change.project, title: change.title }, 'too many changes waiting; this one is left to revalidation by age');
          else log?.warn({ err: error, project: change.project, title: change.title }, 'refreshing a changed article failed');
        });
    },
    onReconnect: (event) => {
      log?.warn({ reason: event.reason, delayMs: event.delayMs, attempt: event.attempt }, 'the followed change stream broke off; reconnecting');
      follow.onReconnect?.(event);
    },
  });
  // From where the last process stopped; from the stream's present when nothing was saved (or it cannot be read).
  position.load().then(
    (saved) => follower.start(saved),
    (error: unknown) => {
      log?.warn({ err: error }, 'reading the saved position in the followed change stream failed; following from the present');
      follower.start();
    },
  );
  return { follower, position };
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
