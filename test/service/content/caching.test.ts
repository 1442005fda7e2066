/**
 * The caches on the /v2 path, end to end over real sockets on both storage backends: the title
 * lookup (invalidated by writes in this process, at most the window stale for other processes),
 * the verified-token claims (revocation and disable keep their guarantees), and the reply bytes
 * (per content and coding, bounded by bytes). "Another process" is a second database handle, as
 * a second server would have; time is a manual clock shared by every server of a suite.
 */
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { runAccountCommand } from '../../../src/service/auth/account-commands.js';
import { DEFAULT_REVOCATION_CACHE_MS } from '../../../src/service/auth/settings.js';
import { importInputs } from '../../../src/service/content/importer.js';
import { ArticleStore } from '../../../src/service/content/store.js';
import type { Db } from '../../../src/service/storage/db.js';
import type { FakeWiki } from '../../support/fake-wiki.js';
import { BACKENDS, freshDir, type TestDatabase } from '../helpers/backends.js';
import { addUser, startTestServer, type ManualClock, type TestServer } from '../helpers/harness.js';
import { BIG_RATE, openWikiSuite, type WikiSuite } from '../helpers/wiki-suite.js';
import { envelope, logIn, pageHtml, revisionsOf, structuredContents, writeEnvelopes, type Caller, type ContentReply, type EnvelopeInput } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const WINDOW = DEFAULT_REVOCATION_CACHE_MS;

const revisions = revisionsOf;

/** A request whose raw bytes we read, undecoded (fetch would decompress them). */
function rawRequest(url: string, token: string, acceptEncoding: string | undefined, body?: unknown): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = request(url, { method: 'POST', headers });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

function decoded(encoding: string | string[] | undefined, bytes: Buffer): string {
  if (encoding === 'br') return brotliDecompressSync(bytes).toString();
  if (encoding === 'gzip') return gunzipSync(bytes).toString();
  if (encoding !== undefined) throw new Error(`unexpected content-encoding ${String(encoding)}`);
  return bytes.toString();
}

describe.each(BACKENDS)('caches of the /v2 path on $name', (backend) => {
  const skip = backend.skip !== undefined;
  let suite: WikiSuite;
  let database: TestDatabase;
  /** The same database through another handle: what another server process writes with. */
  let other: Db;
  let clock: ManualClock;
  let wiki: FakeWiki;
  /** The server under test, on the suite's handle. */
  let server: TestServer;
  /** A second server on the other handle: "another process". */
  let elsewhere: TestServer;
  let caller: Caller;

  const store = (db: Db) => new ArticleStore(db, clock);
  let imports = 0;
  const importArticles = async (db: Db, inputs: EnvelopeInput[]) => {
    const dir = writeEnvelopes(freshDir(`wikistruct-caching-${imports++}`), inputs.map(envelope));
    const summary = await importInputs([dir], { store: store(db), engine: suite.parser });
    expect(summary.failed, 'imported').toBe(0);
  };
  const article = (title: string, revision: number, project = 'enwiki', language = 'en'): EnvelopeInput => ({ project, language, title, revision });

  beforeAll(async () => {
    if (skip) return;
    suite = await openWikiSuite(backend, [{ title: 'Fetched Once', html: pageHtml('enwiki', 'Fetched Once', 901), id: 90, revision: 901 }]);
    ({ database, other, clock, wiki } = suite);
    server = await suite.start(database.db, 'outbox', { content: { parseThreads: 1, wiki: suite.wikiOptions({ attemptTimeoutMs: 400, deadlineMs: 800 }) } });
    elsewhere = await suite.start(other, 'outbox2', { offline: true, content: { parseThreads: 1 } });
    await importArticles(database.db, [article('Einstein', 10), article('Einstein', 11, 'simplewiki'), article('Einstein', 12, 'frwiki', 'fr')]);
    const user = await addUser(database.db, clock);
    caller = await logIn(server, user.username, user.password);
  });
  afterAll(async () => {
    await suite?.close();
  });

  test.skipIf(skip)('a revision stored in this process is served on the next request; one from another process is not, yet', async () => {
    await importArticles(database.db, [article('Revised', 10)]);
    expect(revisions(await caller.contents('Revised')), 'the stored revision').toEqual([10]);
    await importArticles(other, [article('Revised', 15)]);
    expect(revisions(await caller.contents('Revised')), "another process's write: the remembered rows, within the window").toEqual([10]);
    await importArticles(database.db, [article('Revised', 20)]);
    expect(revisions(await caller.contents('Revised')), 'a write in this process: seen at once, the clock unmoved').toEqual([20]);
  });

  test.skipIf(skip)('a revision stored by another process is served once the window has passed', async () => {
    await importArticles(database.db, [article('Elsewhere', 10)]);
    expect(revisions(await caller.contents('Elsewhere')), 'the stored revision').toEqual([10]);
    await importArticles(other, [article('Elsewhere', 11)]);
    clock.advance(WINDOW - 1);
    expect(revisions(await caller.contents('Elsewhere')), 'just inside the window: the remembered rows').toEqual([10]);
    clock.advance(1);
    expect(revisions(await caller.contents('Elsewhere')), 'at the window: read again, the new revision').toEqual([11]);
  });

  test.skipIf(skip)('an upstream fetch stores the article and drops the remembered "nothing stored": fetched once', async () => {
    const ask = () => caller.contents('Fetched_Once', { filters: [{ field: 'is_part_of.identifier', value: 'enwiki' }] });
    expect(revisions(await ask()), 'fetched from the wiki').toEqual([901]);
    expect(revisions(await ask()), 'then from the store').toEqual([901]);
    expect(wiki.count('Fetched Once', 'html'), 'one fetch: the save was seen at once').toBe(1);
  });

  test.skipIf(skip)('an article replaced by another process while its old rows are remembered: the new revision, not a 404', async () => {
    // No Article texts and no replies in memory: the stale row must be read from the database.
    const bare = await startTestServer(database.db, { clock, outboxDir: join(database.dir, 'outbox3'), offline: true, content: { parseThreads: 1, rateLimit: BIG_RATE, memoryCacheMb: 0, replyCacheMb: 0 } });
    try {
      await importArticles(database.db, [article('Replaced', 10)]);
      const ask = () => structuredContents(bare.url, 'Replaced', { token: caller.accessToken });
      expect(revisions(await ask()), 'the stored revision').toEqual([10]);
      await importArticles(other, [article('Replaced', 12)]);
      expect(revisions(await ask()), 'revision 10 is gone from the store: asked again, the new one').toEqual([12]);
    } finally {
      await bare.close();
    }
  });

  test.skipIf(skip)('a revoked token: refused at once by the process that revoked it, by another within the window', async () => {
    const user = await addUser(database.db, clock);
    const session = await logIn(server, user.username, user.password);
    const here = () => structuredContents(server.url, 'Einstein', { token: session.accessToken });
    const there = () => structuredContents(elsewhere.url, 'Einstein', { token: session.accessToken });
    expect([(await here()).status, (await there()).status], 'accepted by both (and remembered)').toEqual([200, 200]);
    expect((await server.post('/token-revoke', { refresh_token: session.refreshToken })).status, 'revoked').toBe(200);
    expect((await here()).status, 'refused at once here').toBe(401);
    clock.advance(WINDOW - 1);
    expect((await there()).status, 'the other process: still within the window').toBe(200);
    clock.advance(1);
    expect((await there()).status, 'the other process: refused at the window').toBe(401);
  });

  test.skipIf(skip)('a disabled account: refused within the window by processes that did not disable it', async () => {
    const user = await addUser(database.db, clock);
    const session = await logIn(server, user.username, user.password);
    const here = () => structuredContents(server.url, 'Einstein', { token: session.accessToken });
    const there = () => structuredContents(elsewhere.url, 'Einstein', { token: session.accessToken });
    expect([(await here()).status, (await there()).status], 'accepted by both (and remembered)').toEqual([200, 200]);
    // `wikistruct user disable` run against the database by a third process.
    expect((await runAccountCommand(other, clock, { action: 'disable', username: user.username })).ok, 'disabled').toBe(true);
    clock.advance(WINDOW - 1);
    expect([(await here()).status, (await there()).status], 'within the window').toEqual([200, 200]);
    clock.advance(1);
    expect([(await here()).status, (await there()).status], 'refused by both at the window').toEqual([403, 403]);
  });

  test.skipIf(skip)('each Accept-Encoding gets its coding, decoding to the same bytes, from the cache the second time', async () => {
    const url = `${server.url}/v2/structured-contents/Einstein`;
    const plain = await rawRequest(url, caller.accessToken, undefined);
    expect([plain.status, plain.headers['content-encoding']], 'no Accept-Encoding: identity').toEqual([200, undefined]);
    expect(plain.bytes.length, 'three Articles: above the compression threshold').toBeGreaterThan(1024);
    const cases: [string, string | undefined][] = [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['deflate', undefined],
      ['identity', undefined],
      ['*', 'br'],
    ];
    for (const round of ['made', 'stored']) {
      for (const [accept, expected] of cases) {
        const reply = await rawRequest(url, caller.accessToken, accept);
        const label = `${accept} (${round})`;
        expect([reply.status, reply.headers['content-encoding']], `${label}: the coding`).toEqual([200, expected]);
        expect(decoded(reply.headers['content-encoding'], reply.bytes), `${label}: decodes to the same bytes`).toBe(plain.bytes.toString());
        expect(reply.headers['etag'], `${label}: one ETag for every coding`).toBe(plain.headers['etag']);
        expect(reply.headers['vary'], `${label}: Vary names both`).toBe('Authorization, Accept-Encoding');
        expect(Number(reply.headers['content-length']), `${label}: the length of the bytes sent`).toBe(reply.bytes.length);
      }
    }
    const metrics = (await server.get('/metrics')).text;
    expect(metrics, 'replies served from stored bytes are counted').toMatch(/wikistruct_reply_cache_total\{result="hit"\} [1-9]/);
  });

  test.skipIf(skip)('different fields and limits never share bytes; the same meaning does', async () => {
    const full = (await caller.contents('Einstein')).json as Record<string, unknown>[];
    const pick = (a: Record<string, unknown>, fields: string[]) => Object.fromEntries(Object.entries(a).filter(([k]) => fields.includes(k)));
    const asks: { body: { fields?: string[]; limit?: number }; expected: unknown }[] = [
      { body: {}, expected: full },
      { body: { limit: 1 }, expected: full.slice(0, 1) },
      { body: { limit: 2 }, expected: full.slice(0, 2) },
      { body: { fields: ['name'] }, expected: full.map((a) => pick(a, ['name'])) },
      { body: { fields: ['name', 'in_language'] }, expected: full.map((a) => pick(a, ['name', 'in_language'])) },
      { body: { fields: ['in_language', 'name'], limit: 2 }, expected: full.slice(0, 2).map((a) => pick(a, ['name', 'in_language'])) },
      { body: { fields: ['name'], limit: 1 }, expected: full.slice(0, 1).map((a) => pick(a, ['name'])) },
      { body: { fields: ['version.identifier'] }, expected: full.map((a) => ({ version: { identifier: (a['version'] as { identifier: number }).identifier } })) },
    ];
    const url = `${server.url}/v2/structured-contents/Einstein`;
    // Twice, the second time in reverse order and with another coding, so every reply is both made and stored before the others are asked.
    for (const [order, accept] of [[asks, 'br'], [[...asks].reverse(), 'gzip']] as const) {
      for (const { body, expected } of order) {
        const reply = await rawRequest(url, caller.accessToken, accept, body);
        expect(JSON.parse(decoded(reply.headers['content-encoding'], reply.bytes)), `${JSON.stringify(body)} with ${accept}`).toEqual(expected);
      }
    }
    const etag = async (body: unknown) => (await caller.contents('Einstein', body)).headers.get('etag');
    expect(await etag({ fields: ['name', 'in_language'] }), 'the same meaning, in another order: the same ETag').toBe(await etag({ fields: ['in_language', 'name'] }));
    expect(await etag({ limit: 3 }), 'a limit above the matches: the same Articles, the same ETag').toBe(await etag({}));
    expect(await etag({ fields: ['name'] }), 'other fields, another ETag').not.toBe(await etag({ fields: ['name', 'in_language'] }));
    expect(await etag({ limit: 1 }), 'another limit that changes the Articles, another ETag').not.toBe(await etag({ limit: 2 }));
  });

  test.skipIf(skip)('the reply cache stays within its byte bound while many articles pass through it', async () => {
    const boundMb = 0.05;
    const bound = Math.floor(boundMb * 1024 * 1024);
    const small = await startTestServer(database.db, { clock, outboxDir: join(database.dir, 'outbox4'), offline: true, content: { parseThreads: 1, rateLimit: BIG_RATE, replyCacheMb: boundMb } });
    try {
      const many = Array.from({ length: 30 }, (_, i) => ({ ...article(`Bulk ${i}`, 100 + i), html: pageHtml('enwiki', `Bulk ${i}`, 100 + i, `Lead of bulk article ${i}. ${'Words of the lead. '.repeat(150)}`) }));
      await importArticles(database.db, many);
      const held = async () => Number(/^wikistruct_reply_cache_bytes (\d+)/m.exec((await small.get('/metrics')).text)?.[1]);
      let total = 0;
      for (const [i, accept] of many.flatMap((_, i) => ['br', 'gzip', 'identity'].map((a) => [i, a] as const))) {
        const reply = await rawRequest(`${small.url}/v2/structured-contents/Bulk_${i}`, caller.accessToken, accept);
        total += reply.bytes.length;
        const text = decoded(reply.headers['content-encoding'], reply.bytes);
        expect((JSON.parse(text) as { name: string }[])[0]?.name, `Bulk ${i} (${accept})`).toBe(`Bulk ${i}`);
        expect(await held(), `within ${bound} bytes after Bulk ${i} (${accept})`).toBeLessThanOrEqual(bound);
      }
      expect(total, 'more bytes went through than the bound holds').toBeGreaterThan(2 * bound);
      expect(await held(), 'and it is used').toBeGreaterThan(bound / 2);
    } finally {
      await small.close();
    }
  });
});
