/**
 * The two storage backends every auth test runs on: embedded PGlite in a temporary directory,
 * and the PostgreSQL server at TEST_DATABASE_URL (default: the CI machine's). On the server each
 * suite gets a fresh schema (first on its search_path), dropped afterwards, so parallel test
 * files and reruns never see each other's rows.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Db } from '../../../src/service/storage/db.js';
import { migrate } from '../../../src/service/storage/migrate.js';
import { openPglite } from '../../../src/service/storage/pglite.js';
import { openPostgres, quoteIdent } from '../../../src/service/storage/postgres.js';

export interface TestDatabase {
  db: Db;
  /** A temporary directory for this suite (outbox, lock files). */
  dir: string;
  /** Another handle on the same database, as a second server process would have (PGlite: the same one). */
  connectAgain(): Promise<Db>;
  dispose(): Promise<void>;
}

export interface Backend {
  name: 'pglite' | 'postgres';
  /** Why this backend is skipped, or undefined when it runs. */
  skip: string | undefined;
  open(): Promise<TestDatabase>;
}

export const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

async function reachable(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

const unreachable = await reachable(TEST_DATABASE_URL);
if (unreachable !== undefined && process.env['CI'] !== undefined) {
  throw new Error(`PostgreSQL at ${TEST_DATABASE_URL} is required under CI and unreachable: ${unreachable}`);
}
let warned = false;
function postgresSkip(): string | undefined {
  if (unreachable === undefined) return undefined;
  if (!warned) {
    warned = true;
    console.log(`skipping the PostgreSQL-server half of the auth suite: ${TEST_DATABASE_URL} unreachable (${unreachable})`);
  }
  return unreachable;
}

export const BACKENDS: Backend[] = [
  { name: 'pglite', skip: undefined, open: openTestPglite },
  { name: 'postgres', skip: postgresSkip(), open: openTestPostgres },
];

/**
 * initdb takes ~10 s; every suite instead copies a data directory initialised once per machine
 * (per PGlite version), built in a private directory and renamed into place so that parallel
 * workers never see a half-written template.
 */
export async function templateDir(): Promise<string> {
  const manifest = new URL('../../../node_modules/@electric-sql/pglite/package.json', import.meta.url);
  const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  const dir = join(tmpdir(), `wikistruct-test-pglite-${version}`);
  if (existsSync(join(dir, 'PG_VERSION'))) return dir;
  const building = mkdtempSync(join(tmpdir(), 'wikistruct-test-pglite-build-'));
  const db = await PGlite.create(building);
  await db.close();
  try {
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another worker won the race
  }
  return dir;
}

async function openTestPglite(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'wikistruct-test-'));
  const dataDir = join(dir, 'pglite');
  cpSync(await templateDir(), dataDir, { recursive: true });
  const db = await openPglite(dataDir);
  await migrate(db);
  return {
    db,
    dir,
    connectAgain: async () => ({ ...db, close: async () => {} }),
    async dispose() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openTestPostgres(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'wikistruct-test-'));
  const schema = `wikistruct_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
  await admin.end();
  const connect = () => openPostgres({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 5 });
  const db = await connect();
  await migrate(db);
  const others: Db[] = [];
  return {
    db,
    dir,
    async connectAgain() {
      const other = await connect();
      others.push(other);
      return other;
    },
    async dispose() {
      for (const other of others) await other.close().catch(() => {});
      await db.close();
      const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${quoteIdent(schema)} CASCADE`);
      await cleanup.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function freshDir(prefix: string): string {
  const dir = join(tmpdir(), `${prefix}-${randomBytes(6).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}
