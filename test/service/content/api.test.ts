/**
 * POST /v2/structured-contents/{article_name} end to end, over real sockets on both storage
 * backends: the real app, a real access token from /v1/login, articles imported from real files
 * through the importer, upstream articles from the fake wiki, parsing on a real worker thread.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { parse } from '../../../src/engine/parse.js';
import { ArticleSchema } from '../../../src/schema/article.js';
import type { Part } from '../../../src/schema/article.js';
import { ENGINE_VERSION } from '../../../src/service/content/engine-version.js';
import { importInputs } from '../../../src/service/content/importer.js';
import { createEngineClient, type EngineClient } from '../../../src/service/engine-client.js';
import { ArticleStore } from '../../../src/service/content/store.js';
import { FakeWiki } from '../../support/fake-wiki.js';
import { BACKENDS, freshDir, type TestDatabase } from '../helpers/backends.js';
import { addUser, HOUR, startTestServer, type TestServer } from '../helpers/harness.js';
import { byProject, deepHtml, envelope, logIn, pageHtml, structuredContents, writeEnvelopes, type Caller } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

describe.each(BACKENDS)('content API on $name', (backend) => {
  const skip = backend.skip !== undefined;
  let database: TestDatabase;
  let server: TestServer;
  let wiki: FakeWiki;
  let parser: EngineClient;
  let caller: Caller;
  let username: string;
  let password: string;

  const metric = async (name: string, labels: string): Promise<number> => {
    const text = (await server.get('/metrics')).text;
    const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
    return line === undefined ? 0 : Number(line.split(' ').pop());
  };

  beforeAll(async () => {
    if (skip) return;
    database = await backend.open();
    wiki = await FakeWiki.start([
      { title: 'Josephine Baker', html: pageHtml('enwiki', 'Josephine Baker', 501), id: 50, revision: 501 },
      { title: 'Crowded', html: pageHtml('enwiki', 'Crowded', 601), id: 60, revision: 601 },
      { title: 'Édith Piaf', html: pageHtml('frwiki', 'Édith Piaf', 701), id: 70, revision: 701 },
    ]);
    server = await startTestServer(database.db, {
      outboxDir: join(database.dir, 'outbox'),
      content: {
        parseThreads: 1,
        rateLimit: { burst: 10_000, perSecond: 10_000 },
        wiki: { resolveOrigin: wiki.resolveOrigin, contact: 'tests', baseDelayMs: 5, maxDelayMs: 20, attemptTimeoutMs: 400, deadlineMs: 800, breakerThreshold: 0 },
      },
    });
    parser = createEngineClient({ threads: 1 });
    const store = new ArticleStore(database.db, server.clock);
    const dir = writeEnvelopes(freshDir('wikistruct-content'), [
      envelope({ project: 'enwiki', language: 'en', title: 'Albert Einstein', revision: 10 }),
      envelope({ project: 'simplewiki', language: 'en', title: 'Albert Einstein', revision: 11 }),
      envelope({ project: 'frwiki', language: 'fr', title: 'Albert Einstein', revision: 12 }),
      envelope({ project: 'enwiki', language: 'en', title: 'Deep', revision: 13, html: deepHtml(13) }),
    ]);
    const summary = await importInputs([dir], { store, engine: parser });
    expect(summary, 'the import loaded every envelope').toMatchObject({ records: 4, inserted: 4, failed: 0 });
    ({ username, password } = await addUser(database.db, server.clock));
    caller = await logIn(server, username, password);
  });
  afterAll(async () => {
    await server?.close();
    await parser?.close();
    await wiki?.close();
    await database?.dispose();
  });

  test.skipIf(skip)('a stored article in every project that has it, each a valid Article, with JSON, ETag and Cache-Control headers', async () => {
    const reply = await caller.contents('Albert_Einstein');
    expect(reply.status, 'found').toBe(200);
    expect(reply.headers.get('content-type'), 'JSON').toMatch(/^application\/json/);
    expect(reply.headers.get('etag'), 'an ETag').toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(reply.headers.get('cache-control'), 'cacheable by the client only').toBe('private, max-age=60');
    expect(byProject(reply.json), 'one Article per project, by project code').toEqual(['enwiki', 'frwiki', 'simplewiki']);
    for (const article of reply.json as unknown[]) expect(ArticleSchema.safeParse(article).success, 'each validates against ArticleSchema').toBe(true);
    expect((reply.json as { abstract?: string }[])[0]?.abstract, 'parsed content').toBe('Lead of Albert Einstein. Paris');
  });

  test.skipIf(skip)('titles are normalised: lower-case first letter, spaces, percent-encoding', async () => {
    for (const name of ['albert_Einstein', 'Albert%20Einstein', '_Albert__Einstein_']) {
      const reply = await caller.contents(name, { filters: [{ field: 'is_part_of.identifier', value: 'enwiki' }] });
      expect([name, reply.status, byProject(reply.json)], `"${name}" names the stored article`).toEqual([name, 200, ['enwiki']]);
    }
    const bad = await caller.contents('Foo%5BBar%5D');
    expect([bad.status, (bad.json as { message: string }).message], 'an illegal title is refused').toEqual([400, 'invalid title "Foo%5BBar%5D": character "[" is not allowed in titles']);
  });

  test.skipIf(skip)('filters by project and language combine with AND; contradictory filters match nothing', async () => {
    const filtered = async (filters: { field: string; value: string }[]) => {
      const reply = await caller.contents('Albert_Einstein', { filters });
      return reply.status === 200 ? byProject(reply.json) : reply.status;
    };
    expect(await filtered([{ field: 'is_part_of.identifier', value: 'simplewiki' }]), 'project').toEqual(['simplewiki']);
    expect(await filtered([{ field: 'in_language.identifier', value: 'en' }]), 'language').toEqual(['enwiki', 'simplewiki']);
    expect(await filtered([{ field: 'in_language.identifier', value: 'en' }, { field: 'is_part_of.identifier', value: 'enwiki' }]), 'both').toEqual(['enwiki']);
    expect(await filtered([{ field: 'in_language.identifier', value: 'fr' }, { field: 'is_part_of.identifier', value: 'enwiki' }]), 'AND: disjoint').toBe(404);
    expect(await filtered([{ field: 'is_part_of.identifier', value: 'enwiki' }, { field: 'is_part_of.identifier', value: 'frwiki' }]), 'two projects').toBe(404);
  });

  test.skipIf(skip)('fields limits each Article to the named fields', async () => {
    const reply = await caller.contents('Albert_Einstein', { fields: ['name', 'abstract', 'infoboxes'], filters: [{ field: 'is_part_of.identifier', value: 'frwiki' }] });
    expect(reply.status, 'ok').toBe(200);
    expect(reply.json, 'only the named fields').toEqual([{ name: 'Albert Einstein', abstract: 'Lead of Albert Einstein. Paris', infoboxes: [] }]);
    const all = await caller.contents('Albert_Einstein', { filters: [{ field: 'is_part_of.identifier', value: 'frwiki' }] });
    expect(reply.headers.get('etag'), 'a projection has its own ETag').not.toBe(all.headers.get('etag'));
  });

  test.skipIf(skip)('If-None-Match with the ETag answers 304 without a body', async () => {
    const first = await caller.contents('Albert_Einstein');
    const etag = first.headers.get('etag')!;
    const again = await caller.contents('Albert_Einstein', undefined, { 'if-none-match': etag });
    expect([again.status, again.text], '304, empty').toEqual([304, '']);
    expect(again.headers.get('etag'), 'the same ETag').toBe(etag);
    const other = await caller.contents('Albert_Einstein', undefined, { 'if-none-match': 'W/"something-else"' });
    expect(other.status, 'another ETag gets the article').toBe(200);
  });

  test.skipIf(skip)('compressed when the client asks: gzip and br decode to the same Articles', async () => {
    const { request } = await import('node:http');
    const { gunzipSync, brotliDecompressSync } = await import('node:zlib');
    const raw = (encoding: string) =>
      new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
        const req = request(`${server.url}/v2/structured-contents/Albert_Einstein`, {
          method: 'POST',
          headers: { authorization: `Bearer ${caller.accessToken}`, 'accept-encoding': encoding },
        });
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      });
    const plain = await caller.contents('Albert_Einstein');
    const gz = await raw('gzip');
    expect(gz.encoding, 'gzip').toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString()), 'same content').toEqual(plain.json);
    const br = await raw('br');
    expect(br.encoding, 'brotli').toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.body).toString()), 'same content').toEqual(plain.json);
  });

  test.skipIf(skip)('a 60-level Part tree survives storage and serving intact', async () => {
    const reply = await caller.contents('Deep');
    const expected = JSON.parse(JSON.stringify(parse(envelope({ project: 'enwiki', language: 'en', title: 'Deep', revision: 13, html: deepHtml(13) }))));
    expect((reply.json as unknown[])[0], 'identical to the engine output').toEqual(expected);
    const depth = (p: Part): number => 1 + Math.max(0, ...(p.has_parts ?? []).map(depth));
    const sections = ((reply.json as { sections: Part[] }[])[0]?.sections ?? []);
    expect(Math.max(...sections.map(depth)), 'really deep').toBeGreaterThanOrEqual(60);
  });

  test.skipIf(skip)('401 for a missing, malformed, expired or revoked token; the revoked one at once', async () => {
    const status = async (token: string | undefined) => (await structuredContents(server.fetch, 'Albert_Einstein', token === undefined ? {} : { token })).status;
    expect(await status(undefined), 'missing').toBe(401);
    expect(await status('not-a-jwt'), 'malformed').toBe(401);
    const missing = await structuredContents(server.fetch, 'Albert_Einstein', {});
    expect(missing.json, 'a Message').toEqual({ message: 'an access token is required: Authorization: Bearer <access_token>', status: 401 });

    const session = await logIn(server, username, password);
    expect((await session.contents('Albert_Einstein')).status, 'valid before revocation').toBe(200);
    expect((await server.post('/token-revoke', { refresh_token: session.refreshToken })).status, 'revoked').toBe(200);
    expect((await session.contents('Albert_Einstein')).status, 'rejected right after revocation').toBe(401);

    const later = await logIn(server, username, password);
    server.clock.advance(25 * HOUR);
    try {
      expect((await later.contents('Albert_Einstein')).status, 'expired').toBe(401);
    } finally {
      server.clock.advance(-25 * HOUR);
    }
  });

  test.skipIf(skip)('422 naming the problem for bad bodies', async () => {
    const problem = async (init: { body?: unknown; rawBody?: string }) => {
      const reply = await structuredContents(server.fetch, 'Albert_Einstein', { token: caller.accessToken, ...init });
      return [reply.status, (reply.json as { message?: string }).message];
    };
    expect(await problem({ rawBody: '{"filters": [' }), 'malformed JSON').toEqual([422, 'request body is not valid JSON']);
    expect(await problem({ body: [] }), 'not an object').toEqual([422, 'request body must be a JSON object']);
    expect(await problem({ body: { filters: [{ field: 'name', value: 'x' }] } }), 'unknown filter field').toEqual([
      422,
      'filters.0.field: unknown filter field; expected one of is_part_of.identifier, in_language.identifier',
    ]);
    expect(await problem({ body: { filters: [{ field: 'is_part_of.identifier' }] } }), 'missing value').toEqual([422, 'filters.0.value: required field is missing']);
    expect(await problem({ body: { fields: ['nonsense'] } }), 'unknown field').toMatchObject([422, expect.stringMatching(/^fields\.0: unknown Article field/)]);
    expect(await problem({ body: { filter: [] } }), 'unknown key').toEqual([422, 'filter: unexpected field']);
  });

  test.skipIf(skip)('not in the store: fetched from the wiki once, stored, then served from the store', async () => {
    const before = wiki.count('Josephine Baker');
    const reply = await caller.contents('Josephine_Baker', { filters: [{ field: 'is_part_of.identifier', value: 'enwiki' }] });
    expect(reply.status, 'fetched').toBe(200);
    const [article] = reply.json as Record<string, unknown>[];
    expect(ArticleSchema.safeParse(article).success, 'a valid Article').toBe(true);
    expect(article, 'metadata from the wiki').toMatchObject({ name: 'Josephine Baker', identifier: 50, version: { identifier: 501 }, is_part_of: { identifier: 'enwiki' } });
    expect(wiki.count('Josephine Baker') - before, 'both routes asked once').toBe(2);
    expect(wiki.requests.at(-1)?.userAgent, 'a descriptive User-Agent').toMatch(/^wikistruct\/\S+ \(tests\) node\//);

    const again = await caller.contents('josephine_Baker');
    expect([again.status, byProject(again.json)], 'the stored copy, with no filter').toEqual([200, ['enwiki']]);
    expect(wiki.count('Josephine Baker') - before, 'no second fetch').toBe(2);
    expect(await metric('wikistruct_upstream_fetches_total', 'outcome="ok"'), 'counted as an upstream fetch').toBeGreaterThanOrEqual(1);
  });

  test.skipIf(skip)('50 concurrent requests for one uncached article: one upstream fetch, 50 identical answers', async () => {
    wiki.fail({ kind: 'slow', delayMs: 150 }, 'Crowded');
    try {
      const replies = await Promise.all(Array.from({ length: 50 }, () => caller.contents('Crowded', { filters: [{ field: 'is_part_of.identifier', value: 'enwiki' }] })));
      expect(replies.map((r) => r.status), 'all succeed').toEqual(Array(50).fill(200));
      expect(new Set(replies.map((r) => r.text)).size, 'the same Article').toBe(1);
      expect([wiki.count('Crowded', 'page'), wiki.count('Crowded', 'html')], 'one fetch per route').toEqual([1, 1]);
    } finally {
      wiki.heal();
    }
  });

  test.skipIf(skip)('language filter alone: the Wikipedia of that language is asked', async () => {
    const reply = await caller.contents('Édith_Piaf', { filters: [{ field: 'in_language.identifier', value: 'fr' }] });
    expect([reply.status, byProject(reply.json)], 'from frwiki').toEqual([200, ['frwiki']]);
  });

  test.skipIf(skip)('upstream failures: 404, 500, slow and down each become a Message naming the project', async () => {
    const ask = async (title: string) => {
      const reply = await caller.contents(title, { filters: [{ field: 'is_part_of.identifier', value: 'enwiki' }] });
      return { status: reply.status, message: (reply.json as { message: string }).message };
    };
    expect(await ask('Nowhere_Page'), 'missing on the wiki').toEqual({ status: 404, message: 'no article "Nowhere Page" on enwiki' });

    wiki.addPage({ title: 'Flaky', html: pageHtml('enwiki', 'Flaky', 801), revision: 801 });
    wiki.fail({ kind: 'status', status: 500 }, 'Flaky');
    const failing = await ask('Flaky');
    expect(failing.status, '500 from the wiki: 502').toBe(502);
    expect(failing.message, 'names the project').toMatch(/^the enwiki wiki is unavailable/);

    wiki.fail({ kind: 'slow', delayMs: 3_000 }, 'Flaky');
    const slow = await ask('Flaky');
    expect(slow.status, 'too slow: 504').toBe(504);
    expect(slow.message, 'names the project').toMatch(/^the enwiki wiki did not answer in time/);
    wiki.heal();

    const gone = await FakeWiki.start([{ title: 'Anything', html: pageHtml('enwiki', 'Anything', 1), revision: 1 }]);
    await gone.down();
    const isolated = await startTestServer(database.db, {
      outboxDir: join(database.dir, 'outbox2'),
      content: { parseThreads: 1, wiki: { resolveOrigin: gone.resolveOrigin, baseDelayMs: 5, maxDelayMs: 10, attemptTimeoutMs: 300, deadlineMs: 600, breakerThreshold: 1 } },
    });
    try {
      const body = { filters: [{ field: 'is_part_of.identifier', value: 'enwiki' }] };
      const down = await structuredContents(isolated.url, 'Anything', { token: caller.accessToken, body });
      expect(down.status, 'connection refused: 502').toBe(502);
      expect((down.json as { message: string }).message, 'names the project').toMatch(/^the enwiki wiki is unavailable/);
      const open = await structuredContents(isolated.url, 'Anything', { token: caller.accessToken, body });
      expect([open.status, (open.json as { message: string }).message], 'the circuit is open: failing fast').toEqual([
        502,
        expect.stringMatching(/^the enwiki wiki is unavailable: its recent fetches failed; not asking again for \d+ s/),
      ]);
      expect(Number(open.headers.get('retry-after')), 'with Retry-After').toBeGreaterThanOrEqual(1);
      const metrics = (await isolated.get('/metrics')).text;
      expect(metrics, 'the failed fetch is counted by outcome').toContain('wikistruct_upstream_fetches_total{project="enwiki",outcome="UPSTREAM_UNAVAILABLE"} 1');
      expect(metrics, 'the refusal apart').toContain('wikistruct_upstream_fetches_total{project="enwiki",outcome="CIRCUIT_OPEN"} 1');
    } finally {
      await isolated.close();
    }
  });

  test.skipIf(skip)('offline: the store only, 404 otherwise, without asking the wiki', async () => {
    const offline = await startTestServer(database.db, { outboxDir: join(database.dir, 'outbox3'), offline: true, content: { parseThreads: 1 } });
    try {
      const requests = wiki.requests.length;
      const stored = await structuredContents(offline.url, 'Albert_Einstein', { token: caller.accessToken });
      expect(stored.status, 'stored articles are served').toBe(200);
      const missing = await structuredContents(offline.url, 'Not_Stored', { token: caller.accessToken });
      expect([missing.status, (missing.json as { message: string }).message], '404 Message').toEqual([
        404,
        'no article "Not Stored" in any project (the article store only: upstream fetching is off)',
      ]);
      expect(wiki.requests.length, 'no upstream request').toBe(requests);
    } finally {
      await offline.close();
    }
  });

  test.skipIf(skip)('an engine upgrade re-parses lazily: a cached Article of another engine version is not served', async () => {
    await database.db.query(`UPDATE parsed_articles SET engine_version = 'old', article = '{"stale":true}' WHERE title = 'Albert Einstein' AND project = 'frwiki'`);
    // A new process after the upgrade: nothing in its memory yet.
    const upgraded = await startTestServer(database.db, { outboxDir: join(database.dir, 'outbox5'), offline: true, content: { parseThreads: 1 } });
    try {
      const ask = () => structuredContents(upgraded.url, 'Albert_Einstein', { token: caller.accessToken, body: { filters: [{ field: 'is_part_of.identifier', value: 'frwiki' }] } });
      const replies = await Promise.all(Array.from({ length: 20 }, ask));
      expect(new Set(replies.map((r) => (r.json as { name?: string }[])[0]?.name)), 'parsed again, not the stale row').toEqual(new Set(['Albert Einstein']));
      const counter = async (name: string) => {
        const text = (await upgraded.get('/metrics')).text;
        return Number(text.split('\n').find((l) => l.startsWith(name))?.split(' ').pop() ?? 0);
      };
      // Every request goes through the reply cache; only its misses read the Article.
      const lookups = async () => (await counter('wikistruct_reply_cache_total{result="miss"}')) + (await counter('wikistruct_reply_cache_total{result="hit"}'));
      expect(await counter('wikistruct_parse_duration_seconds_count{source="store"}'), 'one parse for the twenty concurrent requests').toBe(1);
      expect(await counter('wikistruct_article_cache_total{result="miss"}'), 'the requests that waited for it are misses').toBeGreaterThanOrEqual(1);
      expect(await lookups(), 'every request counted').toBe(20);
      const hits = await counter('wikistruct_reply_cache_total{result="hit"}');
      await ask();
      expect(await counter('wikistruct_reply_cache_total{result="hit"}'), 'the next request hits').toBe(hits + 1);
      expect(await counter('wikistruct_parse_duration_seconds_count{source="store"}'), 'and parses nothing').toBe(1);
      const rows = await database.db.query<{ engine_version: string }>(`SELECT engine_version FROM parsed_articles WHERE title = 'Albert Einstein' AND project = 'frwiki' ORDER BY 1`);
      expect(rows.map((r) => r.engine_version), 'the new version is cached beside the old').toEqual([ENGINE_VERSION, 'old'].sort());
    } finally {
      await upgraded.close();
    }
  });

  test.skipIf(skip)('rate limit per account: 429 with Retry-After once the burst is spent', async () => {
    const limited = await startTestServer(database.db, { outboxDir: join(database.dir, 'outbox4'), offline: true, content: { parseThreads: 1, rateLimit: { burst: 3, perSecond: 1 } } });
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 5; i++) {
        const reply = await structuredContents(limited.url, 'Albert_Einstein', { token: caller.accessToken });
        statuses.push(reply.status);
        if (reply.status === 429) retryAfter = reply.headers.get('retry-after');
      }
      expect(statuses, 'three, then refused').toEqual([200, 200, 200, 429, 429]);
      expect(retryAfter, 'Retry-After in seconds').toBe('1');
      limited.clock.advance(1000);
      expect((await structuredContents(limited.url, 'Albert_Einstein', { token: caller.accessToken })).status, 'refilled after a second').toBe(200);
    } finally {
      await limited.close();
    }
  });

  test.skipIf(skip)('readyz, metrics by route and status, and the OpenAPI document with the recursive Article schema', async () => {
    expect((await server.get('/readyz')).body, 'ready').toEqual({ status: 'ready' });
    const metrics = (await server.get('/metrics')).text;
    expect(metrics, 'request counts by route and status').toMatch(/wikistruct_http_requests_total\{method="POST",route="\/v2\/structured-contents\/:article_name",status="200"\} \d+/);
    expect(metrics, 'latency histogram').toContain('wikistruct_http_request_duration_seconds_bucket{');
    expect(metrics, 'cache hits').toMatch(/wikistruct_article_cache_total\{result="hit"\} \d+/);

    const doc = (await server.get('/v2/openapi.json')).body as { paths: Record<string, unknown>; components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
    expect(Object.keys(doc.paths), 'the content route').toContain('/v2/structured-contents/{article_name}');
    const part = doc.components.schemas['Part'];
    expect(part?.properties?.['has_parts'], 'Part refers to itself by $ref').toEqual({ type: 'array', items: { $ref: '#/components/schemas/Part' } });
    expect(JSON.stringify(doc), 'no dangling $defs references').not.toContain('#/$defs/');
  });
});
