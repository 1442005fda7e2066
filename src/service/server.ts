import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AdminCommand } from './admin-commands.js';
import { listenAdminSocket } from './admin-socket.js';
import { buildApp, type App, type ServiceParts } from './app.js';
import { bootstrapAdmin } from './bootstrap.js';
import { systemClock } from './clock.js';
import { contentSettingsFromEnv, httpTimeoutsFromEnv } from './content/env.js';
import { samplesInTemplate, seedSamples, unpackSampleSnapshots } from './content/samples.js';
import { createLogger } from './logger.js';
import { createMailer } from './mailer.js';
import type { SnapshotBuildResult } from './snapshots/command.js';
import { snapshotsDir } from './snapshots/layout.js';
import { openSharedState, type SharedState } from './shared-state.js';
import { openServeStore, type OpenedStore } from './serve-start.js';
import { releaseYoungGenerationOnce } from './young-generation.js';
import { startMark } from './start-trace.js';
import type { HttpTimeouts } from './timeouts.js';
import type { ContentSettings } from './content/part.js';
import type { UpstreamOrigin } from './content/upstream/origins.js';

// Moved to the light module `wikistruct serve` starts with; still importable from here.
export { catchSignals, defaultDataDir } from './serve-start.js';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export interface ServeOptions {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string | undefined;
  /** Redis for the shared limiter store and bus (shared-state.ts); else the database serves both. */
  redisUrl?: string | undefined;
  smtpUrl?: string | undefined;
  mailFrom?: string | undefined;
  issuer?: string | undefined;
  /** `WIKISTRUCT_KEY_SECRET`: what the signing keys are sealed under; else `<data>/key-secret` (auth/key-secret.ts). */
  keySecret?: string | undefined;
  /** Start even though other accounts can reach the data directory or the key secret file. */
  allowSharedDataDir?: boolean;
  only?: ServiceParts;
  offline?: boolean;
  /**
   * Addresses (or CIDR ranges) of the reverse proxies in front: a request from one of them is
   * judged by the client address its `X-Forwarded-For` names (throttles, rate limits, logs).
   * Default: none, every client is the socket's peer.
   */
  trustProxy?: readonly string[];
  /** Wikis to fetch projects' articles from (`--upstream`, content/upstream/origins.ts); default each Wikimedia wiki. */
  upstreams?: readonly UpstreamOrigin[];
  /** `--max-age`: how long a stored article is served before it is revalidated (content/freshness.ts). */
  maxAgeMs?: number;
  /** `--follow`: the URL of the stream of page changes to follow (content/follow.ts). */
  follow?: string;
  /** HTTP timeouts (src/service/timeouts.ts); default: from the environment, else built-in. */
  timeouts?: Partial<HttpTimeouts>;
  /** Seed an empty embedded store with the shipped sample articles (default true). */
  samples?: boolean;
  /**
   * Background snapshot builds (`--snapshots-every`, snapshots/scheduler.ts): every this many
   * milliseconds (undefined: not periodically), on start when some are missing and after an
   * import unless `snapshotsOff`.
   */
  snapshotsEveryMs?: number | undefined;
  /** No background snapshot builds at all (`--snapshots-every off`): only `wikistruct snapshot build`. */
  snapshotsOff?: boolean;
  logger?: Logger;
  /** Where the one-time admin password and the samples line go (default: standard error). */
  announce?: (text: string) => void;
  /**
   * The store, being opened from these same options since before this module was loaded
   * (serve-start.ts `startOpeningStore`, what `wikistruct serve` does); else opened here.
   */
  opened?: Promise<OpenedStore>;
}

export interface RunningServer {
  url: string;
  app: App;
  /** Stops accepting connections, finishes requests in flight and mails, closes the database. */
  close(): Promise<void>;
}

/** The content settings with the configured wikis in the upstream client's options. */
function withUpstreams(settings: ContentSettings, upstreams: readonly UpstreamOrigin[] | undefined): ContentSettings {
  return upstreams === undefined || upstreams.length === 0 ? settings : { ...settings, wiki: { ...settings.wiki, upstreams } };
}

/** Opens storage, builds the app and listens. Process signals are wired by `catchSignals`, before it is called. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const logger = options.logger ?? createLogger({ level: process.env['LOG_LEVEL'] ?? 'info' });
  const { privacy, keySecret, storage } = await (options.opened ?? openServeStore(options));
  if (privacy.allowShared === true) logger.warn({ dataDir: options.dataDir }, 'the privacy of the data directory and the key secret is not checked (--allow-shared-data-dir)');
  startMark('store awaited');
  const { db, lock, samplesFromTemplate } = storage;
  const mailer = createMailer({
    smtpUrl: options.smtpUrl,
    outboxDir: join(options.dataDir, 'outbox'),
    from: options.mailFrom ?? 'wikistruct <no-reply@localhost>',
  });
  const announce = options.announce ?? ((text: string) => void process.stderr.write(text));
  let app: App;
  let built: App | undefined;
  let seeded: Awaited<ReturnType<typeof seedSamples>>;
  let shared: SharedState | undefined;
  try {
    shared = await openSharedState({
      db,
      clock: systemClock,
      redisUrl: options.redisUrl,
      databaseUrl: options.databaseUrl,
      onError: (error) => logger.warn({ err: error }, 'shared state connection failed; retrying (caches fall back to polling)'),
    });
    startMark('shared state open');
    // Before listening, so the first request already finds them; only into the embedded store,
    // whose first start is a new user's (a PostgreSQL deployment loads its own articles).
    if (samplesFromTemplate === true) {
      seeded = await samplesInTemplate(db, systemClock);
      // Their snapshots too: the start then finds none missing and builds nothing.
      await unpackSampleSnapshots(snapshotsDir(options.dataDir));
    }
    else if (lock !== undefined && options.samples !== false) seeded = await seedSamples(db, systemClock);
    startMark('samples ready');
    app = built = await buildApp({
      db,
      keySecret,
      mailer,
      logger,
      only: options.only ?? 'all',
      offline: options.offline ?? false,
      ...(options.trustProxy === undefined || options.trustProxy.length === 0 ? {} : { trustProxy: options.trustProxy }),
      content: withUpstreams(
        {
          ...contentSettingsFromEnv(),
          snapshotsDir: snapshotsDir(options.dataDir),
          ...(options.maxAgeMs === undefined ? {} : { staleAfterMs: options.maxAgeMs }),
          ...(options.follow === undefined ? {} : { follow: { url: options.follow } }),
        },
        options.upstreams,
      ),
      timeouts: options.timeouts ?? httpTimeoutsFromEnv(),
      shared,
      ...(options.snapshotsOff === true ? {} : { snapshots: { everyMs: options.snapshotsEveryMs } }),
      ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
    });
    // `wikistruct serve` holds the young generation's growth while it starts and until it is
    // asked something (young-generation.ts): an idle server, its start's snapshot build included,
    // stays small, and requests grow it as before.
    app.fastify.addHook('onRequest', releaseYoungGenerationOnce);
    startMark('app built');
    await app.fastify.listen({ host: options.host, port: options.port });
    startMark('listen');
  } catch (error) {
    // The app holds the engine client's worker thread: closed, or the process would not exit.
    await built?.fastify.close();
    mailer.close();
    await shared?.close();
    await db.close();
    throw error;
  }
  // Only a start that listens creates the first account: a start that fails (port taken) must
  // not print a password nobody can use, nor leave an account whose password was never seen.
  try {
    if (seeded !== undefined) {
      announce(`Loaded ${seeded.summary.inserted} sample articles into the empty store (samples/NOTICE.md): ${seeded.articles.join(', ')}.\n`);
    }
    await bootstrapAdmin(db, systemClock, process.env, announce);
    startMark('admin bootstrapped');
  } catch (error) {
    await app.fastify.close();
    mailer.close();
    await shared.close();
    await db.close();
    throw error;
  }
  const address = app.fastify.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}`;
  // With the embedded database, `wikistruct user` cannot open it while we run: serve it here.
  const afterCommand = (command: AdminCommand): void => {
    app.verifier.forgetCachedState();
    // New articles: snapshots of them, soon, in the background.
    if (command.action === 'import') app.snapshots?.request('import');
  };
  const snapshots = app.snapshots;
  const hooks = snapshots === undefined ? {} : { snapshotBuild: (run: () => Promise<SnapshotBuildResult>) => snapshots.exclusive(run) };
  const adminSocket = lock === undefined ? undefined : await listenAdminSocket(options.dataDir, db, systemClock, logger, afterCommand, hooks);
  lock?.announce({ url, adminSocket: adminSocket?.path });
  startMark('admin socket');
  const purge = (): void => {
    app.purge().then(
      (purged) => logger.info({ purged }, 'expired rows purged'),
      (error: unknown) => logger.warn({ err: error }, 'purge failed'),
    );
  };
  purge();
  const purgeTimer = setInterval(purge, PURGE_INTERVAL_MS);
  purgeTimer.unref();
  logger.info({ url, storage: db.kind, only: options.only ?? 'all' }, 'wikistruct service listening');

  let closing: Promise<void> | undefined;
  return {
    url,
    app,
    close: () =>
      (closing ??= (async () => {
        clearInterval(purgeTimer);
        await adminSocket?.close();
        await app.fastify.close();
        await app.drain();
        mailer.close();
        await shared.close();
        await db.close();
      })()),
  };
}
