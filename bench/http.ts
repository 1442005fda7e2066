/**
 * Throughput and latency of POST /v2/structured-contents over loopback, with autocannon:
 *
 *   npx tsx bench/http.ts [--duration 10] [--connections 50] [--threads 2] [--postgres [URL]]
 *
 * The service runs in a child process (its own event loop and cores, as in production); this
 * process runs autocannon and the fake wiki. Rows, each measured in the same run:
 *   1. baseline: bare node:http in the child answering the same Article bytes (no auth, no
 *      database, no routing): the ceiling of any JSON service on this machine;
 *   2. cached: a median-size corpus article already parsed (served from the cached JSON text);
 *   3. uncached: a distinct title per request, fetched from the fake wiki, parsed on demand
 *      (worker threads) and stored — the first request of every article.
 * Printed with the engine's single-article parse time for the same article, for context. Then
 * cached and uncached load at once, parsing on the event loop vs on worker threads: how much a
 * parse in progress slows the requests that need none.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { corpusDir } from '../scripts/conformance/corpus.js';
import { parse } from '../src/engine/parse.js';
import { revisionOfHtml } from '../src/service/content/upstream/index.js';
import { FakeWiki } from '../test/support/fake-wiki.js';

const PAGES = 20_000;

function argValue(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const n = at >= 0 ? Number(process.argv[at + 1]) : Number.NaN;
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

const CHILD = process.argv.includes('--child');
const corpus = corpusDir();
if (corpus === undefined) {
  console.log('bench/http: the corpus is missing (set WIKISTRUCT_CORPUS); nothing to measure');
  process.exit(0);
}

/** The median-size article of the corpus HTML set. */
function medianArticle(): { file: string; html: string } {
  const dir = join(corpus!, 'html');
  const files = readdirSync(dir).filter((f) => f.endsWith('.html')).map((f) => ({ f, size: statSync(join(dir, f)).size })).sort((a, b) => a.size - b.size);
  const file = files[Math.floor(files.length / 2)]!.f;
  return { file, html: readFileSync(join(dir, file), 'utf8') };
}

if (CHILD) await child();
else await parent();

// ── The service process ──────────────────────────────────────────────────────────────────────
async function child(): Promise<void> {
  const { buildApp } = await import('../src/service/app.js');
  const { createAccount } = await import('../src/service/auth/admin.js');
  const { systemClock } = await import('../src/service/clock.js');
  const { importInputs } = await import('../src/service/content/importer.js');
  const { createArticleParser } = await import('../src/service/content/parser.js');
  const { ArticleStore } = await import('../src/service/content/store.js');
  const { createLogger } = await import('../src/service/logger.js');
  const { createMailer } = await import('../src/service/mailer.js');
  const { migrate } = await import('../src/service/storage/migrate.js');
  const { openPglite } = await import('../src/service/storage/pglite.js');
  const { templateDir } = await import('../test/service/helpers/backends.js');

  const dir = mkdtempSync(join(tmpdir(), 'wikistruct-bench-http-'));
  const postgresUrl = process.env['BENCH_POSTGRES'];
  const schema = `wikistruct_bench_${process.pid}`;
  let db;
  if (postgresUrl !== undefined) {
    const { openPostgres, quoteIdent } = await import('../src/service/storage/postgres.js');
    const admin = await openPostgres({ connectionString: postgresUrl, maxConnections: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
    await admin.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
    await admin.close();
    db = await openPostgres({ connectionString: postgresUrl, schema });
  } else {
    cpSync(await templateDir(), join(dir, 'pglite'), { recursive: true });
    db = await openPglite(join(dir, 'pglite'));
  }
  await migrate(db);
  const { file, html } = medianArticle();
  const parser = await createArticleParser(1);
  await importInputs([join(corpus!, 'html', file)], { store: new ArticleStore(db, systemClock), parser, project: 'enwiki' });
  await parser.close();
  const name = (await db.query<{ name: string }>('SELECT title AS name FROM articles LIMIT 1'))[0]?.name ?? '';
  await createAccount(db, systemClock, { username: 'bench', email: 'bench@example.test', password: 'bench long passphrase', temporary: false });

  const app = await buildApp({
    db,
    mailer: createMailer({ outboxDir: join(dir, 'outbox'), from: 'bench <bench@localhost>' }),
    logger: createLogger({ level: 'silent' }),
    content: {
      parseThreads: argValue('--threads', 2),
      rateLimit: { burst: 1e9, perSecond: 1e9 },
      wiki: { resolveOrigin: () => process.env['BENCH_WIKI'] ?? '', contact: 'bench', breakerThreshold: 0 },
    },
  });
  await app.fastify.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.fastify.server.address() as { port: number }).port}`;
  const login = (await (await fetch(`${url}/v1/login`, { method: 'POST', body: JSON.stringify({ username: 'bench', password: 'bench long passphrase' }) })).json()) as { access_token: string };
  const cached = await (await fetch(`${url}/v2/structured-contents/${encodeURIComponent(name.replace(/ /g, '_'))}`, { method: 'POST', headers: { authorization: `Bearer ${login.access_token}` } })).text();

  const baseline = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(cached) });
    res.end(cached);
  });
  await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve));
  const baselineUrl = `http://127.0.0.1:${(baseline.address() as { port: number }).port}`;
  process.stdout.write(`${JSON.stringify({ url, baselineUrl, token: login.access_token, title: name, file, html: html.length, articleBytes: cached.length })}\n`);
  process.on('SIGTERM', () => {
    baseline.close();
    void app.fastify
      .close()
      .then(async () => {
        if (postgresUrl !== undefined) await db.query(`DROP SCHEMA "${schema}" CASCADE`);
        await db.close();
      })
      .finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

// ── autocannon and the fake wiki ─────────────────────────────────────────────────────────────
async function parent(): Promise<void> {
  const duration = argValue('--duration', 10);
  const connections = argValue('--connections', 50);
  const threads = argValue('--threads', 2);
  const at = process.argv.indexOf('--postgres');
  const afterFlag = process.argv[at + 1];
  const postgres = at < 0 ? undefined : afterFlag !== undefined && !afterFlag.startsWith('--') ? afterFlag : 'postgres://postgres@127.0.0.1:5432/test';
  const { file, html } = medianArticle();

  // The engine alone on the same article, for context.
  parse(html);
  const runs = 20;
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) parse(html);
  const parseMs = (performance.now() - t0) / runs;

  // Enough distinct titles that every uncached request asks for a new one.
  const wiki = await FakeWiki.start();
  const revision = revisionOfHtml(html) ?? 1; // matching metadata, so the client fetches each pair once
  for (let i = 0; i < PAGES; i++) wiki.addPage({ title: `Bench ${i}`, html, id: 1 + i, revision });

  interface Service {
    url: string;
    baselineUrl: string;
    token: string;
    title: string;
    articleBytes: number;
    stop(): void;
  }
  const startService = async (parseThreads: number): Promise<Service> => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', '--threads', String(parseThreads)], {
      env: { ...process.env, BENCH_WIKI: wiki.origin, ...(postgres === undefined ? {} : { BENCH_POSTGRES: postgres }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const info = await new Promise<Omit<Service, 'stop'>>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line !== undefined) resolve(JSON.parse(line) as never);
      });
      child.on('close', (code) => reject(new Error(`the service exited (${code}) before it was ready`)));
    });
    return { ...info, stop: () => void child.kill('SIGTERM') };
  };

  const measure = async (label: string, options: autocannon.Options) => {
    const r = await autocannon({ connections, duration, ...options });
    return { label, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, ok: r['2xx'], other: r.non2xx + r.errors + r.timeouts };
  };
  const cachedRequest = (service: Service): autocannon.Options => ({
    url: `${service.url}/v2/structured-contents/${encodeURIComponent(service.title.replace(/ /g, '_'))}`,
    method: 'POST',
    headers: { authorization: `Bearer ${service.token}` },
  });
  let next = 0;
  const uncachedRequest = (service: Service): autocannon.Options => ({
    url: service.url,
    method: 'POST',
    headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ filters: [{ field: 'is_part_of.identifier', value: 'enwiki' }] }),
    requests: [{ setupRequest: (req) => ({ ...req, path: `/v2/structured-contents/Bench_${next++ % PAGES}` }) }],
  });

  const rows = [];
  const info = await startService(threads);
  rows.push(await measure('baseline: bare node:http, same bytes', { url: info.baselineUrl }));
  rows.push(await measure('cached article (stored, parsed)', cachedRequest(info)));
  rows.push(await measure(`uncached: fetch + parse (${threads} threads) + store`, uncachedRequest(info)));
  const metrics = await (await fetch(`${info.url}/metrics`)).text();
  const value = (name: string) => Number(metrics.split('\n').find((l) => l.startsWith(name))?.split(' ').pop() ?? Number.NaN);
  const inService = (value('wikistruct_parse_duration_seconds_sum{source="upstream"}') / value('wikistruct_parse_duration_seconds_count{source="upstream"}')) * 1000;
  info.stop();

  // Does parsing on worker threads keep cached requests fast while articles are being parsed?
  // Cached and uncached load at once (half the connections each), parse inline vs on threads.
  const mixed = [];
  for (const t of [0, threads]) {
    const service = await startService(t);
    next = 0;
    const [cached, uncached] = await Promise.all([
      autocannon({ ...cachedRequest(service), connections: Math.max(1, connections / 2), duration }),
      autocannon({ ...uncachedRequest(service), connections: Math.max(1, connections / 2), duration }),
    ]);
    service.stop();
    mixed.push({ threads: t, cached, uncached });
  }
  await wiki.close();

  console.log(`\narticle: ${file} (${(html.length / 1024).toFixed(0)} KB HTML, Article ${(info.articleBytes / 1024).toFixed(0)} KB JSON); ` + `engine parse alone: ${parseMs.toFixed(1)} ms/article`);
  console.log(`parse in the service (uncached row, envelope to JSON text on a worker, queueing included): ${inService.toFixed(1)} ms/article`);
  console.log(`autocannon: ${connections} connections, ${duration} s per row, loopback; store: ${postgres === undefined ? 'embedded PGlite' : 'PostgreSQL server'}\n`);
  console.log(`${'row'.padEnd(48)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'2xx'.padStart(8)} ${'other'.padStart(6)}`);
  for (const r of rows) {
    console.log(`${r.label.padEnd(48)} ${r.rps.toFixed(0).padStart(9)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.ok).padStart(8)} ${String(r.other).padStart(6)}`);
  }
  console.log(`\ncached and uncached load at once (${Math.max(1, connections / 2)} connections each):`);
  console.log(`${'parse on'.padEnd(20)} ${'cached req/s'.padStart(13)} ${'cached p50'.padStart(11)} ${'cached p99'.padStart(11)} ${'uncached req/s'.padStart(15)}`);
  for (const m of mixed) {
    const where = m.threads === 0 ? 'the event loop' : `${m.threads} worker threads`;
    console.log(
      `${where.padEnd(20)} ${m.cached.requests.average.toFixed(0).padStart(13)} ${String(m.cached.latency.p50).padStart(11)} ${String(m.cached.latency.p99).padStart(11)} ${m.uncached.requests.average.toFixed(1).padStart(15)}`,
    );
  }
}
