/**
 * The first steps of `wikistruct serve`, in a module that loads little (no engine, no HTTP
 * framework): the CLI starts opening the store with it and only then imports the service's
 * modules (server.ts and everything it imports, most of a start's CPU), so that what opening the
 * store leaves to other threads — a first start's template files written by libuv's threads
 * (storage/pglite-template.ts), PGlite's WebAssembly compiled in the background — runs beside
 * the loading of those modules instead of after it.
 *
 * Nothing changes in what a start does or in which failure it reports first: the data
 * directory's privacy, then the key secret, then the lock and the store, as `startServer` did
 * them itself (and still does when it is not handed an opened store).
 */
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { loadKeySecret, type KeySecret } from './auth/key-secret.js';
import { prepareDataDir, type PrivacyOptions } from './storage/data-dir.js';
import { openStorage, type Storage } from './storage/open.js';
import { startMark } from './start-trace.js';

/** What a start opens before it builds the service. */
export interface OpenedStore {
  privacy: PrivacyOptions;
  keySecret: KeySecret;
  storage: Storage;
}

export interface StoreOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** `WIKISTRUCT_KEY_SECRET`, else `<data>/key-secret`. */
  keySecret?: string | undefined;
  allowSharedDataDir?: boolean;
  /** Seed an empty embedded store with the sample articles (default true): its template is unpacked. */
  samples?: boolean;
}

/** Checks the data directory, loads the key secret and opens the store (locked, migrated). */
export async function openServeStore(options: StoreOptions): Promise<OpenedStore> {
  // Before anything is written in it: private (0700), or refused (SharedDataDirError).
  const privacy = { allowShared: options.allowSharedDataDir ?? false };
  prepareDataDir(options.dataDir, privacy);
  const keySecret = loadKeySecret({ envSecret: options.keySecret, dataDir: options.dataDir, ...privacy });
  const storage = await openStorage({
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
    command: 'wikistruct serve',
    privacy,
    samples: options.samples !== false,
  });
  startMark('store open');
  return { privacy, keySecret, storage };
}

/**
 * `openServeStore` started now, its failure left to whoever awaits it: a store that fails to open
 * while the service's modules load is not an unhandled rejection.
 */
export function startOpeningStore(options: StoreOptions): Promise<OpenedStore> {
  const opening = openServeStore(options);
  opening.catch(() => undefined);
  return opening;
}

/** The default data directory: `$WIKISTRUCT_DATA`, else `./data`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env['WIKISTRUCT_DATA'] ?? 'data');
}

/** The part of a running server `catchSignals` closes. */
export interface Closable {
  close(): Promise<void>;
}

/**
 * SIGINT/SIGTERM close the server gracefully; a second signal exits at once. Caught from before
 * the server starts: node applies a signal's default action (the process dies, the store not
 * closed) until a listener exists, and between the "listening" line and the caller's next step
 * the microtasks of the start's first database work run (about 90 ms with the embedded database),
 * so a supervisor's SIGTERM right after that line killed the process. A signal during the start
 * closes the server as soon as it is up.
 */
export function catchSignals(logger: Logger): { closeOnSignal(server: Closable): Promise<void>; release(): void } {
  let signalled: NodeJS.Signals | undefined;
  let onSignal: ((signal: NodeJS.Signals) => void) | undefined;
  const handler = (signal: NodeJS.Signals): void => {
    if (signalled !== undefined) process.exit(1);
    signalled = signal;
    onSignal?.(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    closeOnSignal: (server) =>
      new Promise((done) => {
        const stop = (signal: NodeJS.Signals): void => {
          logger.info({ signal }, 'shutting down');
          server.close().then(done, (error: unknown) => {
            logger.error({ err: error }, 'shutdown failed');
            process.exitCode = 1;
            done();
          });
        };
        if (signalled !== undefined) stop(signalled);
        else onSignal = stop;
      }),
    /** A start that failed: the signals get their default action back. */
    release: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
