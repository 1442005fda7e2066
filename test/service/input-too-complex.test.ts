/**
 * Issue 22, item 2, end to end: a 92 KB page whose table spans ask for 45 million cells once
 * killed `serve` ("JavaScript heap out of memory"). Now the engine refuses it (INPUT_TOO_COMPLEX,
 * src/engine/budget.ts) and every place that parses turns that into a clear failure:
 *
 * - `serve` as a real process with a small heap (256 MB: the old code dies in seconds rather than
 *   eating the machine), over a real socket: `POST /v2/parse` answers 422 `{message, status}` for
 *   the page in both doors, and the process stays up and answers `/healthz` and the next parse;
 * - the content routes: an article fetched from a (fake, real-socket) wiki or stored before the
 *   limits existed is a 422 naming the article;
 * - `wikistruct convert`: an errors-file line with code INPUT_TOO_COMPLEX, exit 1;
 * - `wikistruct import`: a failure that names INPUT_TOO_COMPLEX, exit 1.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ArticleStore } from '../../src/service/content/store.js';
import { colspanTablesHtml, colspanTablesWikitext, spannedTableHtml } from '../engine/complex-pages.js';
import { FakeWiki } from '../support/fake-wiki.js';
import { serve, wikistruct } from '../support/cli.js';
import { BACKENDS, templateDir, type TestDatabase } from './helpers/backends.js';
import { addUser, startTestServer, type TestServer } from './helpers/harness.js';
import { logIn, structuredContents } from './content/support.js';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

const dirs: string[] = [];
const freshDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A Message reply: exactly `{message, status}` with this status, the message matching `part`. */
function expectMessage(reply: { status: number; json: unknown }, status: number, part: RegExp): void {
  expect(reply.status, JSON.stringify(reply.json)?.slice(0, 300)).toBe(status);
  expect(Object.keys(reply.json as object).sort(), 'a Message').toEqual(['message', 'status']);
  expect((reply.json as { status: number }).status).toBe(status);
  expect((reply.json as { message: string }).message).toMatch(part);
}

async function post(url: string, path: string, body: unknown, token?: string): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  const response = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text) as unknown };
}

describe('serve, as a process with a 256 MB heap, refuses the page and stays up', () => {
  test('POST /v2/parse: 422 for the 92 KB span page in both doors; /healthz and the next parse still answer', async () => {
    const data = freshDir('wikistruct-complex-');
    cpSync(await templateDir(), join(data, 'pglite'), { recursive: true }); // skip a 10 s initdb
    const add = await wikistruct(['user', 'add', 'reader', '--email', 'reader@example.test', '--password-stdin', '--data', data], { stdin: 'a long enough passphrase\n' });
    expect(add.code, add.stderr).toBe(0);

    const { child: server, url, exited, stdout, stderr } = await serve(['--port', '0', '--data', data, '--no-samples', '--offline'], { nodeArgs: ['--max-old-space-size=256'] });
    try {
      const login = await post(url, '/v1/login', { username: 'reader', password: 'a long enough passphrase' });
      const token = (login.json as { access_token: string }).access_token;

      const html = colspanTablesHtml();
      expect(html.length, 'the issue’s page: under 100 KB').toBeLessThan(100_000);
      expectMessage(await post(url, '/v2/parse', { html }, token), 422, /^input is too complex: a page of \d+ bytes may make at most 50000 table cells/);
      const wikitext = colspanTablesWikitext();
      expectMessage(await post(url, '/v2/parse', { wikitext, name: 'Spans', project: 'enwiki' }, token), 422, /limit "cells"/);

      const health = await fetch(`${url}/healthz`);
      expect([health.status, await health.json()], 'still alive').toEqual([200, { status: 'ok' }]);
      const ok = await post(url, '/v2/parse', { html: '<html><body><p>Still parsing.</p></body></html>' }, token);
      expect([ok.status, (ok.json as { abstract?: string }).abstract], 'and still parsing').toEqual([200, 'Still parsing.']);
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited, `serve exits cleanly on SIGTERM (it did not die of the page): ${(stdout() + stderr()).slice(-2000)}`).toBe(0);
  });
});

describe('wikistruct convert and import', () => {
  test('convert: an errors-file line with code INPUT_TOO_COMPLEX and exit 1; the other records are converted', async () => {
    const dir = freshDir('wikistruct-complex-convert-');
    const input = join(dir, 'pages.ndjson');
    const good = { name: 'Good', article_body: { html: '<html><body><p>Fine.</p></body></html>' } };
    const html = { name: 'Spans', article_body: { html: colspanTablesHtml() } };
    const wikitext = { name: 'Spans wikitext', article_body: { wikitext: colspanTablesWikitext() } };
    writeFileSync(input, [good, html, wikitext].map((e) => JSON.stringify(e)).join('\n') + '\n');
    const out = join(dir, 'out.ndjson');
    const run = await wikistruct(['convert', input, '-o', out, '--jobs', '1']);
    expect(run.code, run.stderr).toBe(1);
    const errors = readFileSync(`${out}.errors.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(errors.map((e) => [e.name, e.position, e.code])).toEqual([
      ['Spans', 2, 'INPUT_TOO_COMPLEX'],
      ['Spans wikitext', 3, 'INPUT_TOO_COMPLEX'],
    ]);
    expect(errors[0]!.message).toMatch(/table cells/);
    expect(run.stderr, 'each failure on stderr too').toMatch(/pages\.ndjson:2: input is too complex/);
    const converted = readFileSync(out, 'utf8').trim().split('\n');
    expect(converted.map((l) => (JSON.parse(l) as { name: string }).name), 'the good record is converted').toEqual(['Good']);
  });

  test('import: the failure names INPUT_TOO_COMPLEX, exit 1, the good record stored', async () => {
    const data = freshDir('wikistruct-complex-import-');
    cpSync(await templateDir(), join(data, 'pglite'), { recursive: true });
    const input = join(data, 'pages.ndjson');
    const envelope = (name: string, html: string) => ({ name, is_part_of: { identifier: 'enwiki' }, version: { identifier: 1 }, article_body: { html } });
    writeFileSync(input, [envelope('Good', '<html><body><p>Fine.</p></body></html>'), envelope('Spans', spannedTableHtml())].map((e) => JSON.stringify(e)).join('\n') + '\n');
    const run = await wikistruct(['import', input, '--data', data]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/pages\.ndjson:2: INPUT_TOO_COMPLEX: input is too complex: .* table cells/);
    expect(run.stdout, 'the good record stored').toMatch(/imported 2 records.*: 1 new, .* 1 failed/);
  });
});

const pglite = BACKENDS[0]!;

describe('the content routes', () => {
  let database: TestDatabase;
  let wiki: FakeWiki;
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    database = await pglite.open();
    wiki = await FakeWiki.start([{ title: 'Spans', html: spannedTableHtml(), id: 7, revision: 70 }]);
    server = await startTestServer(database.db, {
      outboxDir: join(database.dir, 'outbox'),
      content: { parseThreads: 1, rateLimit: { burst: 10_000, perSecond: 10_000 }, wiki: { resolveOrigin: wiki.resolveOrigin, contact: 'tests', breakerThreshold: 0 } },
    });
    const user = await addUser(database.db, server.clock);
    token = (await logIn(server, user.username, user.password)).accessToken;
  });
  afterAll(async () => {
    await server?.close();
    await wiki?.close();
    await database?.dispose();
  });

  test('an article fetched from its wiki: 422 naming it, and nothing stored', async () => {
    const reply = await structuredContents(server.url, 'Spans', { token });
    expectMessage(reply, 422, /^the article "Spans" of enwiki cannot be processed: input is too complex: .*limit "cells"/);
    const stored = await database.db.query<{ n: string }>('SELECT count(*)::text AS n FROM articles');
    expect(stored[0]!.n).toBe('0');
  });

  test('an article stored before the limits existed: 422 naming it', async () => {
    const store = new ArticleStore(database.db, server.clock);
    await store.upsert({ project: 'enwiki', title: 'Stored Spans', revision: 5, html: spannedTableHtml(), meta: { name: 'Stored Spans', version: { identifier: 5 } }, origin: 'import' });
    const reply = await structuredContents(server.url, 'Stored_Spans', { token });
    expectMessage(reply, 422, /^the stored article "Stored Spans" of enwiki cannot be processed: input is too complex/);
  });
});
