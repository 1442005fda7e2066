/**
 * What /v2/projects and /v2/languages cost on a store of many articles (enterprise/catalog.ts):
 *
 *   npx tsx bench/catalog.ts [--articles 10000] [--requests 200] [--postgres [URL]]
 *
 * Fills the articles table (PGlite in a temporary directory, or a fresh schema on a PostgreSQL
 * server) with `--articles` rows over 12 projects and 9 languages, each with a 3 kB HTML body
 * (out of line, as real bodies are), then serves the real app over loopback and times, one at a
 * time: `--requests` GETs of each list; and the same after every write (an import in progress:
 * each list request follows one article write, so nothing read earlier may be reused).
 * /v2/codes, which reads no database, is the floor: a request's own cost. Printed: mean and
 * p50/p95 per request, in milliseconds.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { Db } from '../src/service/storage/db.js';
import { migrate } from '../src/service/storage/migrate.js';
import { openPglite } from '../src/service/storage/pglite.js';
import { openPostgres, quoteIdent } from '../src/service/storage/postgres.js';
import { Catalog, readCatalog } from '../src/service/content/enterprise/catalog.js';
import { ArticleStore } from '../src/service/content/store.js';
import { addUser, startTestServer } from '../test/service/helpers/harness.js';
import { logIn } from '../test/service/content/support.js';

function argValue(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const n = at >= 0 ? Number(process.argv[at + 1]) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? n : fallback;
}
const ARTICLES = argValue('--articles', 10_000);
const REQUESTS = argValue('--requests', 200);
const postgresAt = process.argv.indexOf('--postgres');
const postgresUrl = postgresAt < 0 ? undefined : (process.argv[postgresAt + 1]?.startsWith('postgres') ? process.argv[postgresAt + 1]! : 'postgres://postgres@127.0.0.1:5432/test');

const PROJECTS = [
  ['enwiki', 'en'], ['frwiki', 'fr'], ['dewiki', 'de'], ['eswiki', 'es'], ['itwiki', 'it'], ['jawiki', 'ja'],
  ['simplewiki', 'en'], ['enwiktionary', 'en'], ['frwiktionary', 'fr'], ['nlwiki', 'nl'], ['plwiki', 'pl'], ['ptwiki', 'pt'],
] as const;

const dir = mkdtempSync(join(tmpdir(), 'wikistruct-bench-catalog-'));
let db: Db;
let dropSchema = async (): Promise<void> => {};
if (postgresUrl === undefined) {
  db = await openPglite(join(dir, 'pglite'));
} else {
  const schema = `wikistruct_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
  await admin.end();
  db = await openPostgres({ connectionString: postgresUrl, schema, maxConnections: 5 });
  dropSchema = async () => {
    const cleanup = new pg.Client({ connectionString: postgresUrl });
    await cleanup.connect();
    await cleanup.query(`DROP SCHEMA ${quoteIdent(schema)} CASCADE`);
    await cleanup.end();
  };
}
await migrate(db);

const started = performance.now();
const projects = `ARRAY[${PROJECTS.map(([p]) => `'${p}'`).join(',')}]`;
const languages = `ARRAY[${PROJECTS.map(([, l]) => `'${l}'`).join(',')}]`;
await db.query(
  `INSERT INTO articles (project, title, revision, page_id, language, html, wikitext, meta, origin, stored_at)
   SELECT (${projects})[1 + i % ${PROJECTS.length}], 'Article ' || i, i, i, (${languages})[1 + i % ${PROJECTS.length}],
          repeat(md5(i::text), 100), NULL, '{}'::jsonb, 'bench', now()
   FROM generate_series(1, $1::int) AS i`,
  [ARTICLES],
);
console.log(`store: ${ARTICLES} articles over ${PROJECTS.length} projects in ${((performance.now() - started) / 1000).toFixed(1)} s (${postgresUrl === undefined ? 'PGlite' : postgresUrl})`);

// The data layer alone, in this process's CPU time (less sensitive to a busy machine than wall
// time; PGlite runs here, so its scan is counted): the scan every list request made before the
// lists were kept, against a kept read.
async function cpuMs(runs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const before = process.cpuUsage();
  for (let i = 0; i < runs; i++) await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / runs;
}
const kept = new Catalog({ db, clock: { now: () => new Date(0) }, maxAgeMs: 60_000 });
console.log(`scan (readCatalog, one per list request before)   ${(await cpuMs(20, () => readCatalog(db))).toFixed(2)} ms CPU each${postgresUrl === undefined ? '' : ' (client side only: the server scans)'}`);
console.log(`kept read (Catalog.projects, within the window)    ${(await cpuMs(REQUESTS, () => kept.projects())).toFixed(4)} ms CPU each`);

const server = await startTestServer(db, { outboxDir: join(dir, 'outbox'), content: { parseThreads: 1, rateLimit: { burst: 1_000_000, perSecond: 1_000_000 } } });
const { username, password } = await addUser(db, server.clock);
const token = (await logIn(server, username, password)).accessToken;
const store = new ArticleStore(db, server.clock);

async function get(path: string): Promise<number> {
  const t0 = performance.now();
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as unknown[];
  const ms = performance.now() - t0;
  if (response.status !== 200 || !Array.isArray(body) || body.length === 0) throw new Error(`${path}: ${response.status}`);
  return ms;
}

function summary(label: string, times: number[]): void {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(2);
  const mean = (times.reduce((a, b) => a + b, 0) / times.length).toFixed(2);
  console.log(`${label.padEnd(34)} mean ${mean} ms  p50 ${at(0.5)}  p95 ${at(0.95)}  (${times.length} requests)`);
}

// /v2/codes reads no database: the cost of a request itself (auth, routing, JSON), for comparison.
for (const path of ['/v2/codes', '/v2/projects', '/v2/languages']) {
  await get(path); // warm the route and the connection
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) times.push(await get(path));
  summary(`${path}`, times);
}

let revision = 10 * ARTICLES;
const afterWrite: number[] = [];
for (let i = 0; i < Math.min(REQUESTS, 50); i++) {
  revision += 1;
  await store.upsert({ project: 'enwiki', title: `Written ${i}`, revision, pageId: revision, language: 'en', html: '<p>x</p>', meta: {}, origin: 'import' });
  afterWrite.push(await get('/v2/projects'));
}
summary('/v2/projects after each write', afterWrite);

await server.close();
await db.close();
await dropSchema();
rmSync(dir, { recursive: true, force: true });
