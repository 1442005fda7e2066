/**
 * Throughput and latency of POST /v2/structured-contents over loopback, with autocannon:
 *
 *   npx tsx bench/http.ts [--duration 10] [--connections 50] [--rounds 3] [--threads 2]
 *                         [--postgres [URL]] [--cached-only]
 *
 * The service runs in a child process (its own event loop and cores, as in production); this
 * process runs autocannon and the fake wiki.
 *
 * 1. Cached article against the bare baseline, in alternating rounds (ours, then the baseline,
 *    each with `Accept-Encoding: br` and without): the baseline is bare node:http in the same
 *    child answering the very bytes the service sends, br-compressed once (no auth, no database,
 *    no routing): the ceiling of any JSON service on this machine with this load generator.
 *    Printed per round: req/s, p99, the child's CPU per request (from /proc), autocannon's own
 *    CPU (a load generator near one full core is itself the bottleneck), and ours ÷ baseline.
 * 2. (not with --cached-only) uncached: a distinct title per request, fetched from the fake wiki,
 *    parsed on demand and stored — the first request of every article; then cached and uncached
 *    load at once (the service parses on worker threads only: src/service/engine-client.ts).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { corpusDir } from '../scripts/conformance/corpus.js';
import { parse } from '../src/index.js';
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
  const { KeySecret } = await import('../src/service/auth/key-secret.js');
  const { systemClock } = await import('../src/service/clock.js');
  const { importInputs } = await import('../src/service/content/importer.js');
  const { createEngineClient } = await import('../src/service/engine-client.js');
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
  const parser = createEngineClient({ threads: 1 });
  await importInputs([join(corpus!, 'html', file)], { store: new ArticleStore(db, systemClock), engine: parser, project: 'enwiki' });
  await parser.close();
  const name = (await db.query<{ name: string }>('SELECT title AS name FROM articles LIMIT 1'))[0]?.name ?? '';
  await createAccount(db, systemClock, { username: 'bench', email: 'bench@example.test', password: 'bench long passphrase', temporary: false });

  const app = await buildApp({
    db,
    keySecret: new KeySecret(randomBytes(32).toString('base64url'), 'a random bench secret'),
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
  // The service's own reply bytes, undecoded (fetch would decompress them): the baseline sends
  // exactly these, compressed once.
  const path = `/v2/structured-contents/${encodeURIComponent(name.replace(/ /g, '_'))}`;
  const plain = await rawPost(`${url}${path}`, login.access_token, undefined);
  const br = await rawPost(`${url}${path}`, login.access_token, 'br');
  if (br.encoding !== 'br') throw new Error(`the service answered br with ${br.encoding ?? 'no coding'}`);

  const baseline = createServer((req, res) => {
    const wantsBr = /\bbr\b/.test(req.headers['accept-encoding'] ?? '');
    const body = wantsBr ? br.bytes : plain.bytes;
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
      vary: 'Authorization, Accept-Encoding',
      ...(wantsBr ? { 'content-encoding': 'br' } : {}),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve));
  const baselineUrl = `http://127.0.0.1:${(baseline.address() as { port: number }).port}`;
  process.stdout.write(
    `${JSON.stringify({ url, baselineUrl, token: login.access_token, title: name, file, html: html.length, articleBytes: plain.bytes.length, brBytes: br.bytes.length })}\n`,
  );
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

/** POSTs and returns the reply's bytes as sent, with their content coding. */
function rawPost(url: string, token: string, acceptEncoding: string | undefined): Promise<{ encoding: string | undefined; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
    const req = request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime), counted from after the command name; in clock ticks.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

// ── autocannon and the fake wiki ─────────────────────────────────────────────────────────────
async function parent(): Promise<void> {
  const duration = argValue('--duration', 10);
  const connections = argValue('--connections', 50);
  const threads = argValue('--threads', 2);
  const rounds = Math.max(1, argValue('--rounds', 3));
  const cachedOnly = process.argv.includes('--cached-only');
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
    brBytes: number;
    pid: number;
    stop(): void;
  }
  const startService = async (parseThreads: number): Promise<Service> => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', '--threads', String(parseThreads)], {
      env: { ...process.env, BENCH_WIKI: wiki.origin, ...(postgres === undefined ? {} : { BENCH_POSTGRES: postgres }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const info = await new Promise<Omit<Service, 'stop' | 'pid'>>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line !== undefined) resolve(JSON.parse(line) as never);
      });
      child.on('close', (code) => reject(new Error(`the service exited (${code}) before it was ready`)));
    });
    return { ...info, pid: child.pid ?? 0, stop: () => void child.kill('SIGTERM') };
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

  const info = await startService(threads);
  /** One autocannon run with the CPU of the service's process and of this one (autocannon) over it. */
  const timed = async (options: autocannon.Options) => {
    const childBefore = cpuSecondsOf(info.pid);
    const ownBefore = process.cpuUsage();
    const started = performance.now();
    const r = await autocannon({ connections, duration, ...options });
    const wall = (performance.now() - started) / 1000;
    const own = process.cpuUsage(ownBefore);
    return {
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.non2xx + r.errors + r.timeouts,
      serverCpuMs: ((cpuSecondsOf(info.pid) - childBefore) * 1000) / Math.max(1, r.requests.total),
      loaderCpu: (own.user + own.system) / 1e6 / wall,
    };
  };
  type Timed = Awaited<ReturnType<typeof timed>>;
  const codings = [
    { label: 'Accept-Encoding: br', headers: { 'accept-encoding': 'br' } },
    { label: 'no Accept-Encoding', headers: {} as Record<string, string> },
  ];
  const ours = cachedRequest(info);
  // Unreported warm-up of both (JIT, the caches' first fill), so round 1 is not the cold one.
  await autocannon({ ...ours, connections, duration: Math.min(3, duration) });
  await autocannon({ url: info.baselineUrl, method: 'POST', connections, duration: Math.min(3, duration) });
  const comparisons: { round: number; coding: string; ours: Timed; baseline: Timed }[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const coding of codings) {
      // Alternating, so drift in the machine's load (it is shared) hits both alike.
      const service = await timed({ ...ours, headers: { ...ours.headers, ...coding.headers } });
      const bare = await timed({ url: info.baselineUrl, method: 'POST', headers: coding.headers });
      comparisons.push({ round, coding: coding.label, ours: service, baseline: bare });
    }
  }

  const rows = [];
  let inService = Number.NaN;
  if (!cachedOnly) {
    rows.push(await measure(`uncached: fetch + parse (${threads} threads) + store`, uncachedRequest(info)));
    const metrics = await (await fetch(`${info.url}/metrics`)).text();
    const value = (name: string) => Number(metrics.split('\n').find((l) => l.startsWith(name))?.split(' ').pop() ?? Number.NaN);
    inService = (value('wikistruct_parse_duration_seconds_sum{source="upstream"}') / value('wikistruct_parse_duration_seconds_count{source="upstream"}')) * 1000;
  }
  info.stop();

  // Does parsing on worker threads keep cached requests fast while articles are being parsed?
  // Cached and uncached load at once (half the connections each). (Parsing on the event loop, the
  // comparison this once had, is gone from the service: every parse runs on the engine client's threads.)
  const mixed = [];
  for (const t of cachedOnly ? [] : [threads]) {
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

  console.log(
    `\narticle: ${file} (${(html.length / 1024).toFixed(0)} KB HTML, reply ${(info.articleBytes / 1024).toFixed(0)} KB JSON, ${(info.brBytes / 1024).toFixed(0)} KB br); ` +
      `engine parse alone: ${parseMs.toFixed(1)} ms/article`,
  );
  console.log(`autocannon: ${connections} connections, ${duration} s per run, loopback; store: ${postgres === undefined ? 'embedded PGlite' : 'PostgreSQL server'}\n`);
  console.log('cached article: ours (POST /v2, token, stored bytes) vs baseline (bare node:http, the same bytes, br compressed once), alternating');
  const cell = (t: Timed) =>
    `${t.rps.toFixed(0).padStart(7)} ${String(t.p99).padStart(7)} ${t.serverCpuMs.toFixed(2).padStart(8)} ${(t.loaderCpu * 100).toFixed(0).padStart(6)}%${t.errors > 0 ? ` (${t.errors} errors)` : ''}`;
  const head = `${'req/s'.padStart(7)} ${'p99 ms'.padStart(7)} ${'cpu ms'.padStart(8)} ${'loader'.padStart(7)}`;
  console.log(`${'round'.padEnd(6)} ${'coding'.padEnd(20)} | ours: ${head} | baseline: ${head} | ${'ratio'.padStart(5)} ${'p99 ×'.padStart(6)}`);
  for (const c of comparisons) {
    console.log(
      `${String(c.round).padEnd(6)} ${c.coding.padEnd(20)} |       ${cell(c.ours)} |           ${cell(c.baseline)} | ` +
        `${(c.ours.rps / c.baseline.rps).toFixed(2).padStart(5)} ${(c.ours.p99 / c.baseline.p99).toFixed(2).padStart(6)}`,
    );
  }
  for (const coding of codings) {
    const of = comparisons.filter((c) => c.coding === coding.label);
    console.log(
      `median over ${of.length} rounds, ${coding.label}: req/s ratio ${median(of.map((c) => c.ours.rps / c.baseline.rps)).toFixed(2)}, ` +
        `p99 ${median(of.map((c) => c.ours.p99))} vs ${median(of.map((c) => c.baseline.p99))} ms (${median(of.map((c) => c.ours.p99 / c.baseline.p99)).toFixed(2)}×)`,
    );
  }
  console.log('(cpu ms: the service process\'s CPU per request; loader: autocannon\'s CPU, % of one core)');
  if (cachedOnly) return;

  console.log(`\nparse in the service (uncached row, envelope to JSON text on a worker, queueing included): ${inService.toFixed(1)} ms/article`);
  console.log(`${'row'.padEnd(48)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'2xx'.padStart(8)} ${'other'.padStart(6)}`);
  for (const r of rows) {
    console.log(`${r.label.padEnd(48)} ${r.rps.toFixed(0).padStart(9)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.ok).padStart(8)} ${String(r.other).padStart(6)}`);
  }
  console.log(`\ncached and uncached load at once (${Math.max(1, connections / 2)} connections each):`);
  console.log(`${'parse on'.padEnd(20)} ${'cached req/s'.padStart(13)} ${'cached p50'.padStart(11)} ${'cached p99'.padStart(11)} ${'uncached req/s'.padStart(15)}`);
  for (const m of mixed) {
    const where = `${m.threads} worker threads`;
    console.log(
      `${where.padEnd(20)} ${m.cached.requests.average.toFixed(0).padStart(13)} ${String(m.cached.latency.p50).padStart(11)} ${String(m.cached.latency.p99).padStart(11)} ${m.uncached.requests.average.toFixed(1).padStart(15)}`,
    );
  }
}
