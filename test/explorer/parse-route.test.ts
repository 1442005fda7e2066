/**
 * The explorer's service side through `app.inject()` on both storage backends: POST /v2/parse and
 * GET /v2/source/{title} (token first, then the rate limit, then the body; every error a
 * Message naming the problem; nothing stored), and the page itself at `/` with its policy.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { parse } from '../../src/engine/parse.js';
import { parseWikitext } from '../../src/engine/wikitext/index.js';
import { ArticleSchema, type Article } from '../../src/schema/article.js';
import { ArticleStore } from '../../src/service/content/store.js';
import { PAGE_POLICY } from '../../src/service/explorer/assets.js';
import { buildExplorer } from '../../scripts/build-explorer.js';
import { BACKENDS, type TestDatabase } from '../service/helpers/backends.js';
import { addUser, startTestServer, type Fetcher, type TestServer } from '../service/helpers/harness.js';
import { logIn, pageHtml } from '../service/content/support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const INPUT_LIMIT = 64 * 1024;
const FIXTURE = readFileSync(new URL('../../corpus/references/input.html', import.meta.url), 'utf8');

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

async function call(send: Fetcher, path: string, init: { token?: string; body?: string; method?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== undefined) headers['authorization'] = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await send(path, { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, ...(init.body === undefined ? {} : { body: init.body }) });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A Message reply: exactly `{message, status}`, the status the HTTP one, the message containing `part`. */
function expectMessage(reply: Reply, status: number, part: string | RegExp): void {
  expect(reply.status, `status ${status}: ${reply.text}`).toBe(status);
  expect(Object.keys(reply.json as object).sort(), 'a Message').toEqual(['message', 'status']);
  expect((reply.json as { status: number }).status, 'status in the body').toBe(status);
  expect((reply.json as { message: string }).message).toMatch(part);
}

describe.each(BACKENDS)('explorer routes on $name', (backend) => {
  const skip = backend.skip !== undefined;
  let database: TestDatabase;
  let server: TestServer;
  let limited: TestServer;
  let assets: string;
  let token: string;
  let store: ArticleStore;
  /** `auth` null: no Authorization header. */
  const parseCall = (body: unknown, auth: string | null = token) => call(server.fetch, '/v2/parse', { ...(auth === null ? {} : { token: auth }), body: typeof body === 'string' ? body : JSON.stringify(body) });
  const counts = async () => (await database.db.query<{ a: string; p: string }>('SELECT (SELECT count(*) FROM articles)::text AS a, (SELECT count(*) FROM parsed_articles)::text AS p'))[0];

  beforeAll(async () => {
    if (skip) return;
    database = await backend.open();
    assets = await buildExplorer(mkdtempSync(join(tmpdir(), 'wikistruct-explorer-assets-')));
    server = await startTestServer(database.db, {
      socket: false,
      outboxDir: join(database.dir, 'outbox'),
      content: { parseThreads: 1 },
      explorer: { maxInputBytes: INPUT_LIMIT, rateLimit: { burst: 10_000, perSecond: 10_000 }, assetsDir: assets },
    });
    limited = await startTestServer(database.db, { socket: false, outboxDir: join(database.dir, 'outbox2'), clock: server.clock, content: { parseThreads: 1 }, explorer: { rateLimit: { burst: 2, perSecond: 0.5 } } });
    const user = await addUser(database.db, server.clock);
    token = (await logIn(server, user.username, user.password)).accessToken;
    store = new ArticleStore(database.db, server.clock);
    await store.upsert({ project: 'enwiki', title: 'Stored Page', revision: 77, html: pageHtml('enwiki', 'Stored Page', 77), meta: { name: 'Stored Page', version: { identifier: 77 } }, origin: 'import' });
    await store.upsert({ project: 'enwiki', title: 'Wikitext Page', revision: 78, wikitext: "'''Wikitext Page''' is a page.\n\n== History ==\nIt was.", meta: {}, origin: 'import' });
  });
  afterAll(async () => {
    await server?.close();
    await limited?.close();
    await database?.dispose();
    if (assets !== undefined) rmSync(assets, { recursive: true, force: true });
  });

  test.skipIf(skip)('HTML in, the very Article the engine makes out, with source hints when asked; nothing stored', async () => {
    const before = await counts();
    const reply = await parseCall({ html: FIXTURE });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.headers.get('cache-control'), 'not kept by caches either').toBe('no-store');
    expect(reply.json, 'what parse() gives').toEqual(JSON.parse(JSON.stringify(parse(FIXTURE))));
    expect(ArticleSchema.parse(reply.json), 'a valid Article').toEqual(reply.json);
    const sourced = await parseCall({ html: FIXTURE, source_positions: true });
    expect(sourced.json, 'with hints: parse(html, { sourcePositions: true })').toEqual(JSON.parse(JSON.stringify(parse(FIXTURE, { sourcePositions: true }))));
    expect(sourced.text, 'hints present').toContain('"source":{"element":');
    expect(await counts(), 'no article or parse stored').toEqual(before);
  });

  test.skipIf(skip)('wikitext with name and project in, the Article parseWikitext makes out', async () => {
    const wikitext = "'''Foo''' is a placeholder.<ref>A source.</ref>\n\n== History ==\nIt was used early.\n\n== References ==\n<references />\n";
    const reply = await parseCall({ wikitext, name: 'Foo', project: 'enwiki' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toEqual(JSON.parse(JSON.stringify(parseWikitext(wikitext, { name: 'Foo', project: 'enwiki' }))));
  });

  test.skipIf(skip)('a token is required before anything else: no token, a bad token, even with a body over the limit', async () => {
    const noToken = await parseCall({ html: '<p>x</p>' }, null);
    expectMessage(noToken, 401, 'an access token is required');
    expect(noToken.headers.get('www-authenticate'), 'the RFC 6750 challenge').toBe('Bearer realm="wikistruct"');
    expectMessage(await parseCall({ html: '<p>x</p>' }, 'not-a-token'), 401, /token/);
    expectMessage(await parseCall(JSON.stringify({ html: 'x'.repeat(3 * INPUT_LIMIT) }), null), 401, 'an access token is required');
    expectMessage(await call(server.fetch, '/v2/source/Stored_Page?project=enwiki'), 401, 'an access token is required');
  });

  test.skipIf(skip)('a bad body is a 422 naming the problem', async () => {
    const cases: [unknown, string | RegExp][] = [
      ['', /^request body must be a JSON object/],
      ['{"html": ', 'request body is not valid JSON'],
      [[1], /^request body must be a JSON object/],
      [{}, /^request body must be a JSON object/],
      [{ html: 3 }, 'html: must be a string'],
      [{ html: '' }, 'html: must not be empty'],
      [{ html: '<p>x</p>', wikitext: 'x' }, 'send either html or wikitext, not both'],
      [{ html: '<p>x</p>', name: 'X' }, 'name and project go with wikitext'],
      [{ wikitext: 'x' }, 'name: required with wikitext'],
      [{ wikitext: 'x', name: 'X' }, 'project: required with wikitext'],
      [{ wikitext: 'x', name: 'X', project: 'not a project' }, 'project: unknown project code'],
      [{ wikitext: 'x', name: 'X', project: 'enwiki', source_positions: true }, 'source_positions: available for html only'],
      [{ html: '<p>x</p>', source_positions: 'yes' }, 'source_positions: must be true or false'],
      [{ html: '<p>x</p>', store: true }, 'store: unexpected field'],
      [{ html: 'no tags at all' }, 'input is not HTML: no HTML tag'],
    ];
    for (const [body, message] of cases) expectMessage(await parseCall(body), 422, message);
  });

  test.skipIf(skip)('too large is a 413 naming the limit: the input by the engine, the body by the route', async () => {
    expectMessage(await parseCall({ html: `<p>${'x'.repeat(INPUT_LIMIT)}</p>` }), 413, `over the limit of ${INPUT_LIMIT} bytes`);
    expectMessage(await parseCall({ wikitext: 'y'.repeat(INPUT_LIMIT + 1), name: 'Y', project: 'enwiki' }), 413, `over the limit of ${INPUT_LIMIT} bytes`);
    // Every quote is two bytes of JSON: the body passes its limit before the input reaches the engine.
    expectMessage(await parseCall(JSON.stringify({ html: '"'.repeat(INPUT_LIMIT + 600) })), 413, `request body is larger than ${2 * INPUT_LIMIT + 1024} bytes`);
  });

  test.skipIf(skip)('the rate limit answers 429 with Retry-After, and lets the caller through again once the bucket refills', async () => {
    const user = await addUser(database.db, server.clock);
    const own = (await logIn(limited, user.username, user.password)).accessToken;
    const once = () => call(limited.fetch, '/v2/parse', { token: own, body: JSON.stringify({ html: '<p>x</p>' }) });
    expect((await once()).status).toBe(200);
    expect((await once()).status).toBe(200);
    const refused = await once();
    expectMessage(refused, 429, /^rate limit exceeded for parsing; retry in \d+ s$/);
    expect(Number(refused.headers.get('retry-after')), 'Retry-After in seconds').toBeGreaterThanOrEqual(1);
    // The source route shares the bucket (it parses too).
    expectMessage(await call(limited.fetch, '/v2/source/Stored_Page?project=enwiki', { token: own }), 429, 'rate limit');
    server.clock.advance(Number(refused.headers.get('retry-after')) * 1000);
    expect((await once()).status, 'after Retry-After').toBe(200);
  });

  test.skipIf(skip)('GET /v2/source: a stored article’s HTML and its Article with hints; wikitext sources as they are', async () => {
    const reply = await call(server.fetch, '/v2/source/Stored_Page?project=enwiki', { token });
    expect(reply.status, reply.text).toBe(200);
    const body = reply.json as { project: string; name: string; revision: number; format: string; source: string; article: Article };
    expect([body.project, body.name, body.revision, body.format]).toEqual(['enwiki', 'Stored Page', 77, 'html']);
    expect(body.source).toBe(pageHtml('enwiki', 'Stored Page', 77));
    expect(body.article.name, 'the envelope metadata is kept').toBe('Stored Page');
    expect(reply.text, 'with hints').toContain('"source":{"element":');
    const wikitext = await call(server.fetch, '/v2/source/Wikitext%20Page?project=enwiki', { token });
    expect(wikitext.status, wikitext.text).toBe(200);
    expect((wikitext.json as { format: string; article: Article }).format).toBe('wikitext');
    expect((wikitext.json as { article: Article }).article.sections.map((s) => s.name)).toEqual(['abstract', 'History']);
  });

  test.skipIf(skip)('GET /v2/source errors: unknown article 404, no or unknown project 422, bad title 400, extra parameter 422', async () => {
    expectMessage(await call(server.fetch, '/v2/source/Nowhere?project=enwiki', { token }), 404, 'no stored article "Nowhere" in enwiki');
    expectMessage(await call(server.fetch, '/v2/source/Stored_Page', { token }), 422, 'project: required');
    expectMessage(await call(server.fetch, '/v2/source/Stored_Page?project=xx_nope', { token }), 422, 'project: unknown project code');
    expectMessage(await call(server.fetch, '/v2/source/Stored_Page?project=enwiki&fields=name', { token }), 422, /^fields: unexpected query parameter \(only project\)$/);
    expectMessage(await call(server.fetch, '/v2/source/Stored_Page?project=enwiki&project=dewiki', { token }), 422, /^project: give it once$/);
    expectMessage(await call(server.fetch, '/v2/source/A%7CB?project=enwiki', { token }), 400, 'invalid title');
  });

  test.skipIf(skip)('the page at / with a strict policy, its assets under /explorer/, an ETag, and nothing else from disk', async () => {
    const page = await call(server.fetch, '/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(PAGE_POLICY);
    expect(PAGE_POLICY, 'no inline script, only our origin').toContain("script-src 'self'");
    expect(page.text).toContain('<script type="module" src="/explorer/app.js"></script>');
    const script = await call(server.fetch, '/explorer/app.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.text.length, 'the bundle').toBeGreaterThan(10_000);
    expect(script.text, 'bundled: no bare imports left for a CDN').not.toMatch(/from\s*["'](htmlparser2|zod|entities)/);
    const again = await call(server.fetch, '/explorer/app.js', { headers: { 'if-none-match': script.headers.get('etag')! } });
    expect(again.status, 'unchanged: 304').toBe(304);
    // The one If-None-Match check of the /v2 replies (routes/v2/http.ts): a list, a weak tag.
    const listed = await call(server.fetch, '/explorer/app.js', { headers: { 'if-none-match': `"other", W/${script.headers.get('etag')!}` } });
    expect(listed.status, 'one of a list, compared weakly: 304').toBe(304);
    expect((await call(server.fetch, '/explorer/app.js', { headers: { 'if-none-match': '"other"' } })).status, 'another tag: 200').toBe(200);
    expectMessage(await call(server.fetch, '/explorer/nothing.js'), 404, 'no explorer file');
    expectMessage(await call(server.fetch, '/explorer/..%2Fpackage.json'), 404, 'no explorer file');
    expectMessage(await call(server.fetch, '/explorer/%2E%2E%2F%2E%2E%2Fpackage.json'), 404, 'no explorer file');
  });
});
