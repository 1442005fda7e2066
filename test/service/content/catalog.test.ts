/**
 * The stored projects and languages behind /v2/projects and /v2/languages (enterprise/catalog.ts):
 * one scan kept between requests; dropped by a write, at its window's end, or when the clock goes
 * back; a scan that races a write is not kept; and, on the real app, a write through another
 * store on the same handle (an import) is listed by the very next request.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { Catalog, readCatalog } from '../../../src/service/content/enterprise/catalog.js';
import { ArticleStore } from '../../../src/service/content/store.js';
import type { Db } from '../../../src/service/storage/db.js';
import { BACKENDS, type TestDatabase } from '../helpers/backends.js';
import { addUser, ManualClock, startTestServer, type TestServer } from '../helpers/harness.js';
import { call } from './enterprise-support.js';
import { logIn } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

type Pair = { project: string; language: string | null };

/** A database that answers the catalog's one query from `pairs`, counting scans; `gate` holds a scan mid-way. */
function fakeDb() {
  const state = { pairs: [{ project: 'enwiki', language: 'en' }] as Pair[], scans: 0, gate: undefined as Promise<void> | undefined };
  const db = {
    kind: 'pglite',
    async query<T>(): Promise<T[]> {
      state.scans += 1;
      const seen = [...state.pairs]; // what the database holds when the query runs
      await state.gate;
      return seen as T[];
    },
    transaction: () => Promise.reject(new Error('not used')),
    close: async () => {},
  } as Db;
  return { db, state };
}

const ids = (items: Array<{ identifier: string }>) => items.map((i) => i.identifier);
/** The scan's behaviour alone, without the bundled table of Wikimedia's wikis. */
const NOTHING_BUNDLED = { projects: [], languages: [] };

describe('Catalog', () => {
  test('kept within the window; read again at its end, after a write, or when the clock goes back', async () => {
    const clock = new ManualClock();
    const { db, state } = fakeDb();
    const catalog = new Catalog({ db, clock, maxAgeMs: 2000, bundled: NOTHING_BUNDLED });
    expect(ids(await catalog.projects()), 'first read').toEqual(['enwiki']);
    state.pairs.push({ project: 'frwiki', language: 'fr' });
    clock.advance(1999);
    expect([ids(await catalog.projects()), ids(await catalog.languages()), state.scans], 'within the window: both lists kept, one scan').toEqual([['enwiki'], ['en'], 1]);
    clock.advance(1);
    expect([ids(await catalog.projects()), state.scans], 'at the window: read again').toEqual([['enwiki', 'frwiki'], 2]);
    state.pairs.push({ project: 'dewiki', language: 'de' });
    catalog.invalidate();
    expect([ids(await catalog.languages()), state.scans], 'after a write: read again at once').toEqual([['de', 'en', 'fr'], 3]);
    clock.advance(-1);
    await catalog.projects();
    expect(state.scans, 'a clock that went back: read again').toBe(4);
  });

  test('concurrent requests share one scan; a scan that began before a write is not kept', async () => {
    const clock = new ManualClock();
    const { db, state } = fakeDb();
    const catalog = new Catalog({ db, clock, maxAgeMs: 2000, bundled: NOTHING_BUNDLED });
    let release!: () => void;
    state.gate = new Promise((resolve) => (release = resolve));
    const early = [catalog.projects(), catalog.languages()];
    expect(state.scans, 'one scan for two requests').toBe(1);
    state.pairs.push({ project: 'frwiki', language: 'fr' });
    catalog.invalidate();
    const late = catalog.projects();
    expect(state.scans, 'a request after the write does not join the older scan').toBe(2);
    release();
    expect(ids((await early[0])!), 'the early requests have what they read').toEqual(['enwiki']);
    expect(ids(await late), 'the late one sees the write').toEqual(['enwiki', 'frwiki']);
    state.gate = undefined;
    expect([ids(await catalog.projects()), state.scans], 'and only the later scan was kept').toEqual([['enwiki', 'frwiki'], 2]);
  });

  test('maxAgeMs 0 reads every time', async () => {
    const { db, state } = fakeDb();
    const catalog = new Catalog({ db, clock: new ManualClock(), maxAgeMs: 0, bundled: NOTHING_BUNDLED });
    await catalog.projects();
    await catalog.projects();
    expect(state.scans).toBe(2);
  });
});

describe.each(BACKENDS)('the catalog on $name', (backend) => {
  const skip = backend.skip !== undefined;
  let database: TestDatabase;
  let server: TestServer;
  let token: string;
  const clock = new ManualClock();
  beforeAll(async () => {
    if (skip) return;
    database = await backend.open();
    server = await startTestServer(database.db, { clock, outboxDir: join(database.dir, 'outbox'), content: { parseThreads: 1, rateLimit: { burst: 10_000, perSecond: 10_000 } } });
    const { username, password } = await addUser(database.db, clock);
    token = (await logIn(server, username, password)).accessToken;
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });
  const store = () => new ArticleStore(database.db, clock);
  const put = (project: string, title: string, language: string | undefined) =>
    store().upsert({ project, title, revision: 1, html: '<p>x</p>', meta: {}, origin: 'import', ...(language === undefined ? {} : { language }) });

  test.skipIf(skip)('both lists from the stored rows, ordered by code whatever the collation', async () => {
    await put('zhwiki', 'A', 'zh');
    await put('zh_yuewiki', 'A', 'yue');
    await put('localarchive', 'A', 'xx');
    await put('localarchive', 'B', 'aa');
    await put('commonswiki', 'A', undefined);
    const lists = await readCatalog(database.db);
    // '_' (0x5F) sorts before 'w' (0x77) by code unit; a locale collation that skips punctuation would not.
    expect(ids(lists.projects), 'projects by code unit').toEqual(['commonswiki', 'localarchive', 'zh_yuewiki', 'zhwiki']);
    expect(lists.projects.find((p) => p.identifier === 'localarchive'), 'an unplaceable code: its least stored language').toEqual({ identifier: 'localarchive', in_language: { identifier: 'aa', name: 'Afar', direction: 'ltr' } });
    expect(ids(lists.languages), "the articles' languages and the placed projects' own").toEqual(expect.arrayContaining(['aa', 'xx', 'yue', 'zh']));
    expect(ids(lists.languages), 'sorted, each once').toEqual([...new Set(ids(lists.languages))].sort());
  });

  test.skipIf(skip)('/v2/projects lists an article imported through another store at the next request, without the clock moving', async () => {
    const before = await call(server.url, '/v2/projects?fields=identifier', { token });
    expect(before.json, 'not yet stored').not.toContainEqual({ identifier: 'townarchive' });
    await put('townarchive', 'Neu', 'qqx');
    const after = await call(server.url, '/v2/projects?fields=identifier', { token });
    expect(after.json, 'the write dropped the kept lists').toContainEqual({ identifier: 'townarchive' });
    const languages = await call(server.url, '/v2/languages?fields=identifier', { token });
    expect(languages.json, 'and the languages').toContainEqual({ identifier: 'qqx' });
  });
});
