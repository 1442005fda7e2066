import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './db.js';
import { prepareDataDir, type PrivacyOptions } from './data-dir.js';
import { acquireDataDirLock, type DataDirLock } from './lock.js';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';
import { startMark } from '../start-trace.js';

export interface StorageOptions {
  /** Directory of the embedded database, the lock file and the mail outbox. */
  dataDir: string;
  /** When set, a PostgreSQL server is used instead of the embedded database. */
  databaseUrl?: string | undefined;
  /** Who opens the database, recorded in the lock file: "wikistruct serve", "wikistruct user". */
  command: string;
  /** `--allow-shared-data-dir`: open an embedded database in a directory other accounts can reach. */
  privacy?: PrivacyOptions;
  /**
   * A new embedded database is made from the template that holds the sample articles
   * (pglite-template.ts): `serve` without `--no-samples`.
   */
  samples?: boolean;
}

export interface Storage {
  db: Db;
  /** Present for the embedded database only. */
  lock?: DataDirLock;
  /** The embedded database was made just now from the template that holds the sample articles. */
  samplesFromTemplate?: boolean;
}

/** Opens the configured database, migrated to the current schema. Closing the Db releases the lock. */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  if (options.databaseUrl !== undefined) {
    // The PostgreSQL client is loaded only for a server: an embedded start does without it.
    const { openPostgres } = await import('./postgres.js');
    const db = await openPostgres({ connectionString: options.databaseUrl });
    await migrateOrClose(db);
    return { db };
  }
  // 0700: PGlite writes its files 0666 whatever the umask, so the directory is what keeps other
  // accounts out (data-dir.ts).
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const lock = acquireDataDirLock(options.dataDir, options.command);
  let db: Awaited<ReturnType<typeof openPglite>>;
  try {
    // Checked once the lock is ours: every process that writes password hashes and keys into the
    // directory refuses one that is not private (`user add` before the first `serve` included);
    // a command the lock sends to the running server leaves the check to that server.
    prepareDataDir(options.dataDir, options.privacy);
    db = await openPglite(join(options.dataDir, 'pglite'), { template: options.samples === true ? 'samples' : 'plain' });
    startMark('pglite open');
  } catch (error) {
    lock.release();
    throw error;
  }
  const locked: Db = {
    ...db,
    async close() {
      try {
        await db.close();
      } finally {
        lock.release();
      }
    },
  };
  await migrateOrClose(locked);
  return { db: locked, lock, ...(db.unpacked === 'samples' ? { samplesFromTemplate: true } : {}) };
}

async function migrateOrClose(db: Db): Promise<void> {
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
}
