/**
 * Freshness of stored articles, end to end over real sockets on both storage backends: an article
 * older than --max-age is served at once and revalidated in the background against the fake
 * wiki's page metadata (`/page/{title}/bare`); a newer revision there is fetched, stored, and
 * served by every process; one revalidation per title runs across processes; `0` revalidates on
 * every request, offline never; a failing wiki is not asked again before the retry delay; and the
 * replies say their age. Time is a manual clock shared by the servers: nothing here sleeps.
 *
 * "Another process" is a second database handle with the deployment's bus (PostgreSQL: LISTEN/
 * NOTIFY on the server; PGlite: the in-process bus), as a second `serve` would have.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ArticleStore } from '../../../src/service/content/store.js';
import { embeddedSharedState, openSharedState, type SharedState } from '../../../src/service/shared-state.js';
import type { Db } from '../../../src/service/storage/db.js';
import type { FakeWiki } from '../../support/fake-wiki.js';
import { BACKENDS, TEST_DATABASE_URL, type TestDatabase } from '../helpers/backends.js';
import { addUser, DAY, type ManualClock, type TestServer } from '../helpers/harness.js';
import { openWikiSuite, type WikiSuite } from '../helpers/wiki-suite.js';
import { call } from './enterprise-support.js';
import { importArticle as importStored, logIn, nextWrite as nextWriteOf, pageHtml, revisionsOf, structuredContents } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const RETRY_MS = 60_000;

/** Waits for background work to have happened (polls `check` until it passes; nothing is timed). */
const settle = (check: () => unknown) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

const revisions = revisionsOf;

describe.each(BACKENDS)('stored articles kept fresh on $name', (backend) => {
  const skip = backend.skip !== undefined;
  let suite: WikiSuite;
  let database: TestDatabase;
  let clock: ManualClock;
  let wiki: FakeWiki;
  const shared: SharedState[] = [];
  /** --max-age 24 h (the default), on the suite's handle. */
  let here: TestServer;
  /** Another process, on the other handle: --max-age 24 h, and its lookups trusted for 10 days, so only a push makes it read a title again. */
  let there: TestServer;
  /** --max-age 0. */
  let always: TestServer;
  let offline: TestServer;

  /** One NOTIFY channel for the suite's processes, and none other's. */
  const channel = `freshness_${randomBytes(4).toString('hex')}`;
  const bus = async (): Promise<SharedState> => {
    const state =
      backend.name === 'postgres'
        ? await openSharedState({ db: database.db, clock, databaseUrl: TEST_DATABASE_URL, namespace: channel })
        : embeddedSharedState(database.db, clock);
    shared.push(state);
    return state;
  };
  const importArticle = (title: string, revision: number) => importStored(database.db, clock, suite.parser, title, revision);
  const onWiki = (title: string, revision: number) => wiki.addPage({ title, html: pageHtml('enwiki', title, revision, `Lead of ${title} at ${revision}.`), id: 7, revision, timestamp: '2026-02-01T10:00:00Z' });
  let user: { username: string; password: string };
  let signedIn: { at: number; token: Promise<string> } | undefined;
  /** An access token valid at the clock's present (they last a day): one sign-in for concurrent asks. */
  const currentToken = (): Promise<string> => {
    const now = clock.now().getTime();
    if (signedIn === undefined || now - signedIn.at > 20 * 60 * 60_000) signedIn = { at: now, token: logIn(here, user.username, user.password).then((c) => c.accessToken) };
    return signedIn.token;
  };
  const ask = async (server: TestServer, title: string) => structuredContents(server.url, title.replace(/ /g, '_'), { token: await currentToken() });
  const nextWrite = (db: Db, title: string) => nextWriteOf(db, clock, title);
  /** The stored row's revision and whether the wiki confirmed it at the clock's present time. */
  const stored = async (title: string) => {
    const [row] = await new ArticleStore(database.db, clock).find([title], 'enwiki');
    return { revision: row?.revision, confirmedNow: row?.checkedAt === clock.now().getTime() };
  };

  beforeAll(async () => {
    if (skip) return;
    suite = await openWikiSuite(backend);
    ({ database, clock, wiki } = suite);
    const start = async (db: Db, name: string, content: Record<string, unknown>, isOffline = false) =>
      suite.start(db, name, { engine: suite.parser, offline: isOffline, shared: await bus(), content });
    here = await start(database.db, 'here', {});
    there = await start(suite.other, 'there', { lookupCacheMs: 10 * DAY });
    always = await start(database.db, 'always', { staleAfterMs: 0 });
    offline = await start(database.db, 'offline', {}, true);
    user = await addUser(database.db, clock);
  });
  afterAll(async () => {
    await suite?.close(async () => {
      for (const state of shared) await state.close();
    });
  });

  test.skipIf(skip)('older than --max-age: served at once, refreshed in the background, the new revision served by every process', async () => {
    await importArticle('Aging', 10);
    onWiki('Aging', 11);
    const first = await ask(here, 'Aging');
    expect(revisions(first), 'the stored revision').toEqual([10]);
    expect([first.headers.get('age'), first.headers.get('cache-control')], 'just stored: age 0').toEqual(['0', 'private, max-age=60']);
    expect(first.headers.get('last-modified'), "the revision's date").toBe('Thu, 01 Jan 2026 00:00:00 GMT');
    expect(revisions(await ask(there, 'Aging')), 'the other process: the stored revision (its lookup now trusted for days)').toEqual([10]);

    clock.advance(DAY - 1000);
    expect(revisions(await ask(here, 'Aging')), 'a second short of the limit').toEqual([10]);
    expect(wiki.count('Aging'), 'younger than --max-age: the wiki is not asked').toBe(0);

    clock.advance(1000);
    const writtenHere = nextWrite(database.db, 'Aging');
    const writtenThere = nextWrite(suite.other, 'Aging');
    const stale = await ask(here, 'Aging');
    expect(revisions(stale), 'at the limit: still served at once, as stored').toEqual([10]);
    expect([stale.headers.get('age'), stale.headers.get('cache-control')], 'its age: a day, and max-age counted from then').toEqual(['86400', `private, max-age=${86400 + 60}`]);
    await writtenHere;
    const fresh = await ask(here, 'Aging');
    expect(revisions(fresh), 'the newer revision the wiki had').toEqual([11]);
    expect([fresh.headers.get('age'), fresh.headers.get('last-modified')], 'just fetched: age 0, the new date').toEqual(['0', 'Sun, 01 Feb 2026 10:00:00 GMT']);
    expect((fresh.json as { abstract?: string }[])[0]?.abstract, 'its content').toContain('Lead of Aging at 11.');
    expect([wiki.count('Aging', 'bare'), wiki.count('Aging', 'html')], 'one metadata request, one fetch').toEqual([1, 1]);

    await writtenThere;
    expect(revisions(await ask(there, 'Aging')), 'the other process was told: the new revision, its clock unmoved').toEqual([11]);
  });

  test.skipIf(skip)('unchanged on the wiki: confirmed with one metadata request, its age back to 0', async () => {
    await importArticle('Steady', 20);
    onWiki('Steady', 20);
    clock.advance(DAY + 5000);
    const stale = await ask(here, 'Steady');
    expect([revisions(stale), stale.headers.get('age')], 'served as stored, a day old').toEqual([[20], String(DAY / 1000 + 5)]);
    await settle(async () => expect(await stored('Steady')).toEqual({ revision: 20, confirmedNow: true }));
    const confirmed = await ask(here, 'Steady');
    expect([revisions(confirmed), confirmed.headers.get('age')], 'confirmed now').toEqual([[20], '0']);
    expect([wiki.count('Steady', 'bare'), wiki.count('Steady', 'html')], 'the metadata only, once').toEqual([1, 0]);
  });

  test.skipIf(skip)('/v2/articles says its age as structured contents do, and revalidates a stale article the same way', async () => {
    await importArticle('Envelope age', 30);
    onWiki('Envelope age', 31);
    const article = async () => call(here.url, '/v2/articles/Envelope_age', { token: await currentToken(), body: { fields: ['version.identifier'] } });
    const first = await article();
    expect([first.status, first.headers.get('age'), first.headers.get('cache-control'), first.headers.get('last-modified')], 'just stored').toEqual([
      200,
      '0',
      'private, max-age=60',
      'Thu, 01 Jan 2026 00:00:00 GMT',
    ]);
    clock.advance(DAY + 7000);
    const stale = await article();
    expect([stale.json, stale.headers.get('age'), stale.headers.get('cache-control')], 'served as stored, with its age').toEqual([
      [{ version: { identifier: 30 } }],
      String(DAY / 1000 + 7),
      `private, max-age=${DAY / 1000 + 7 + 60}`,
    ]);
    await settle(async () => expect(await stored('Envelope age')).toEqual({ revision: 31, confirmedNow: true }));
    const fresh = await article();
    expect([fresh.json, fresh.headers.get('age'), fresh.headers.get('last-modified')], 'the newer revision, just fetched').toEqual([
      [{ version: { identifier: 31 } }],
      '0',
      'Sun, 01 Feb 2026 10:00:00 GMT',
    ]);
  });

  test.skipIf(skip)('one revalidation per title in flight across processes', async () => {
    await importArticle('Contested', 30);
    onWiki('Contested', 30);
    // A slow answer keeps the first revalidation in flight while the others ask.
    wiki.fail({ kind: 'slow', delayMs: 300, route: 'bare' }, 'Contested');
    clock.advance(DAY);
    const replies = await Promise.all([...Array(6)].flatMap(() => [ask(here, 'Contested'), ask(there, 'Contested')]));
    expect(new Set(replies.map((r) => JSON.stringify(revisions(r)))), 'every request served at once, as stored').toEqual(new Set(['[30]']));
    await settle(async () => expect(await stored('Contested')).toEqual({ revision: 30, confirmedNow: true }));
    await wiki.settled();
    expect(wiki.count('Contested', 'bare'), 'twelve stale requests in two processes: one request to the wiki').toBe(1);
    wiki.heal();
  });

  test.skipIf(skip)('--max-age 0 revalidates on every request; --offline never', async () => {
    await importArticle('Always', 40);
    onWiki('Always', 40);
    for (const round of [1, 2, 3]) {
      clock.advance(1000);
      expect(revisions(await ask(always, 'Always')), `request ${round}`).toEqual([40]);
      await settle(async () => expect(await stored('Always')).toEqual({ revision: 40, confirmedNow: true }));
      expect(wiki.count('Always', 'bare'), `request ${round}: asked each time`).toBe(round);
    }

    await importArticle('Offline', 50);
    onWiki('Offline', 51);
    clock.advance(30 * DAY);
    const old = await ask(offline, 'Offline');
    expect([revisions(old), old.headers.get('age')], 'offline: served as stored, and says how old').toEqual([[50], String(30 * 24 * 3600)]);
    expect(wiki.count('Offline'), 'never asked').toBe(0);
  });

  test.skipIf(skip)('a failing wiki: served as stored, and not asked again before the retry delay', async () => {
    await importArticle('Failing', 60);
    onWiki('Failing', 61);
    wiki.fail({ kind: 'status', status: 503 }, 'Failing');
    clock.advance(DAY);
    expect(revisions(await ask(here, 'Failing')), 'served as stored').toEqual([60]);
    await settle(() => expect(wiki.count('Failing', 'bare'), 'three attempts (the client retries 503)').toBe(3));
    await wiki.settled();
    // The lease is now held until the retry time: nobody asks, in this process or another. Waited
    // for as that time itself: while the failed revalidation is still finishing, the lease is the
    // revalidation's own (two minutes), and a test going on before it ends would move the retry
    // time past the clock's advance below.
    const retryAt = clock.now().getTime() + RETRY_MS;
    const lease = async () => (await database.db.query<{ until: Date | string | null }>(`SELECT revalidating_until AS until FROM articles WHERE title = 'Failing'`))[0]?.until;
    await settle(async () => expect(new Date((await lease()) ?? 0).getTime(), 'the lease kept as the retry delay').toBe(retryAt));
    clock.advance(RETRY_MS - 1000);
    expect(revisions(await ask(here, 'Failing')), 'still served').toEqual([60]);
    expect(revisions(await ask(there, 'Failing')), 'by the other process too').toEqual([60]);
    await wiki.settled();
    expect(wiki.count('Failing', 'bare'), 'not asked again within the retry delay').toBe(3);

    wiki.heal();
    clock.advance(1000);
    const written = nextWrite(database.db, 'Failing');
    expect(revisions(await ask(here, 'Failing')), 'after the delay: still served at once').toEqual([60]);
    await written;
    expect(revisions(await ask(here, 'Failing')), 'then refreshed').toEqual([61]);
  });
});
