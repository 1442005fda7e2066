/**
 * `serve --follow`, end to end over real sockets on both storage backends: the server follows the
 * fake wiki's stream of page changes (server-sent events, as Wikimedia EventStreams sends them),
 * refreshes a changed stored article without anyone asking for it, ignores what is not a stored
 * article's new content, resumes from the last event id after the stream breaks off, and backs
 * off (longer each time, and as long as Retry-After asks) while the stream is refused.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { readChange, type ReconnectEvent } from '../../../src/service/content/follow.js';
import { createEngineClient, type EngineClient } from '../../../src/service/engine-client.js';
import type { Db } from '../../../src/service/storage/db.js';
import { FakeWiki } from '../../support/fake-wiki.js';
import { BACKENDS, type TestDatabase } from '../helpers/backends.js';
import { addUser, ManualClock, startTestServer, type TestServer } from '../helpers/harness.js';
import { importArticle as importStored, logIn, nextWrite as nextWriteOf, pageHtml, revisionsOf, type Caller } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const revisions = revisionsOf;

/** A `mediawiki.page_change.v1` event as EventStreams sends it (the fields read, and some others). */
const pageChange = (wiki: string, title: string, revision: number, extra: { namespace?: number; kind?: string; domain?: string } = {}) => ({
  $schema: '/mediawiki/page/change/1.1.0',
  meta: { stream: 'mediawiki.page_change.v1', domain: extra.domain ?? 'en.wikipedia.org', dt: '2026-01-01T00:00:00Z' },
  wiki_id: wiki,
  page_change_kind: extra.kind ?? 'edit',
  page: { page_id: 7, page_title: title.replace(/ /g, '_'), namespace_id: extra.namespace ?? 0, is_redirect: false },
  revision: { rev_id: revision, rev_parent_id: revision - 1 },
});

describe('the events of the change stream', () => {
  test('page_change and recentchange: an article edit is a change; other namespaces, log entries, canaries and garbage are not', () => {
    expect(readChange(JSON.stringify(pageChange('enwiki', 'Albert Einstein', 5)))).toEqual({ project: 'enwiki', title: 'Albert_Einstein', revision: 5 });
    expect(readChange(JSON.stringify(pageChange('enwiki', 'Talk:X', 5, { namespace: 1 }))), 'a talk page').toBeUndefined();
    expect(readChange(JSON.stringify(pageChange('enwiki', 'X', 5, { kind: 'delete' }))), 'a deletion: the stored article stays').toBeUndefined();
    expect(readChange(JSON.stringify(pageChange('enwiki', 'X', 5, { domain: 'canary' }))), "the stream's canary").toBeUndefined();
    const recent = { wiki: 'frwiki', title: 'Paris', namespace: 0, type: 'edit', revision: { old: 8, new: 9 }, meta: { domain: 'fr.wikipedia.org' } };
    expect(readChange(JSON.stringify(recent)), 'recentchange').toEqual({ project: 'frwiki', title: 'Paris', revision: 9 });
    expect(readChange(JSON.stringify({ ...recent, type: 'log' })), 'a log entry').toBeUndefined();
    expect(readChange(JSON.stringify({ ...recent, type: 'categorize' })), 'a categorisation').toBeUndefined();
    expect(readChange('not json'), 'garbage').toBeUndefined();
    expect(readChange('{"wiki_id": 3}'), 'another shape').toBeUndefined();
  });
});

describe.each(BACKENDS)('serve --follow on $name', (backend) => {
  const skip = backend.skip !== undefined;
  let database: TestDatabase;
  let clock: ManualClock;
  let wiki: FakeWiki;
  let parser: EngineClient;
  let server: TestServer;
  let caller: Caller;
  const reconnects: ReconnectEvent[] = [];

  const importArticle = (title: string, revision: number) => importStored(database.db, clock, parser, title, revision);
  const onWiki = (title: string, revision: number) => wiki.addPage({ title, html: pageHtml('enwiki', title, revision), id: 7, revision, timestamp: '2026-02-01T10:00:00Z' });
  const nextWrite = (db: Db, title: string) => nextWriteOf(db, clock, title);

  beforeAll(async () => {
    if (skip) return;
    database = await backend.open();
    clock = new ManualClock();
    wiki = await FakeWiki.start();
    parser = createEngineClient({ threads: 1 });
    server = await startTestServer(database.db, {
      clock,
      engine: parser,
      outboxDir: join(database.dir, 'outbox'),
      content: {
        rateLimit: { burst: 100_000, perSecond: 100_000 },
        wiki: { resolveOrigin: wiki.resolveOrigin, contact: 'tests', baseDelayMs: 5, maxDelayMs: 20, attemptTimeoutMs: 2_000, deadlineMs: 4_000, breakerThreshold: 0 },
        follow: { url: wiki.streamUrl, initialDelayMs: 20, maxDelayMs: 160, onReconnect: (event) => reconnects.push(event), saveEveryMs: 20 },
      },
    });
    const user = await addUser(database.db, clock);
    caller = await logIn(server, user.username, user.password);
  });
  afterAll(async () => {
    await server?.close();
    await parser?.close();
    await wiki?.close();
    await database?.dispose();
  });

  test.skipIf(skip)('a change to a stored article is refreshed at once, nobody asking; other changes are left alone', async () => {
    await importArticle('Followed', 100);
    await importArticle('Marker', 200);
    onWiki('Followed', 101);
    onWiki('Marker', 201);
    for (const title of ['Not Stored', 'Old News', 'Talk Page']) onWiki(title, 300);
    await importArticle('Old News', 300);
    await wiki.streaming(1);
    expect(wiki.streamConnections[0], 'connected with our User-Agent, from the start').toEqual({ lastEventId: undefined, userAgent: expect.stringMatching(/^wikistruct\/.*\(tests\)/), status: 200 });

    const followed = nextWrite(database.db, 'Followed');
    wiki.emit(pageChange('enwiki', 'Followed', 101));
    await followed;
    expect(revisions(await caller.contents('Followed')), 'the new revision, stored before anyone asked').toEqual([101]);
    expect([wiki.count('Followed', 'bare'), wiki.count('Followed', 'html')], 'the event named the revision: fetched, no metadata asked').toEqual([0, 1]);

    wiki.emit(pageChange('enwiki', 'Not Stored', 300));
    wiki.emit(pageChange('dewiki', 'Followed', 300, { domain: 'de.wikipedia.org' }));
    wiki.emit(pageChange('enwiki', 'Old News', 300));
    wiki.emit(pageChange('enwiki', 'Talk Page', 300, { namespace: 1 }));
    // Then one that is refreshed: once it is, the events before it have been handled long since
    // (each is at most a database read, this one a fetch and a parse).
    const marker = nextWrite(database.db, 'Marker');
    wiki.emit(pageChange('enwiki', 'Marker', 201));
    await marker;
    expect(
      ['Not Stored', 'Old News', 'Talk Page'].map((title) => wiki.count(title)),
      'not stored, another project, already that revision, not an article: the wiki never asked',
    ).toEqual([0, 0, 0]);
  });

  test.skipIf(skip)('the stream breaks off: resumed from the last event id, backing off while refused', async () => {
    await importArticle('Resumed', 400);
    onWiki('Resumed', 401);
    await wiki.streaming(1);
    const lastId = wiki.emit({ comment: 'an event of another shape: its id counts all the same' });
    const connections = wiki.streamConnections.length;
    reconnects.length = 0;
    wiki.refuseStreams({ status: 503 }, { status: 503 }, { status: 429, retryAfter: '1' });
    // The event, then the end, on one connection: the client reads them in that order.
    wiki.endStreams();
    await wiki.streaming(2);

    const again = wiki.streamConnections.slice(connections);
    expect(again.map((c) => [c.status, c.lastEventId]), 'every reconnection resumed from the last event').toEqual([
      [503, lastId],
      [503, lastId],
      [429, lastId],
      [200, lastId],
    ]);
    expect(reconnects.map((r) => r.reason), 'why each wait').toEqual(['connection ended', 'HTTP 503', 'HTTP 503', 'HTTP 429']);
    const delays = reconnects.map((r) => r.delayMs);
    expect(delays.slice(0, 3).every((d, i) => i === 0 || d >= delays[i - 1]!), `longer each time: ${delays.join(', ')}`).toBe(true);
    expect(delays[0], 'the first wait: at most the initial delay').toBeLessThanOrEqual(20);
    expect(delays[3], 'as long as Retry-After asked').toBeGreaterThanOrEqual(1000);

    const resumed = nextWrite(database.db, 'Resumed');
    wiki.emit(pageChange('enwiki', 'Resumed', 401));
    await resumed;
    expect(revisions(await caller.contents('Resumed')), 'following again').toEqual([401]);

    reconnects.length = 0;
    wiki.endStreams();
    await wiki.streaming(3);
    expect(reconnects.map((r) => [r.attempt, r.reason]), 'events flowed again: the backoff started over').toEqual([[1, 'connection ended']]);
  });
  test.skipIf(skip)('a restarted server resumes from the last event id saved in the store, not from the present', async () => {
    const saved = async (stream: string) =>
      (await database.db.query<{ last_event_id: string }>('SELECT last_event_id FROM follow_positions WHERE stream = $1', [stream]))[0]?.last_event_id;
    /** Another serve process on the same database, following `url`, saving its position only when it stops. */
    const restart = (name: string, url: string) =>
      startTestServer(database.db, {
        clock,
        engine: parser,
        outboxDir: join(database.dir, name),
        content: { wiki: { resolveOrigin: wiki.resolveOrigin, contact: 'tests' }, follow: { url, initialDelayMs: 20, maxDelayMs: 160, saveEveryMs: 60 * 60_000 } },
      });
    const connected = async (start: () => Promise<TestServer>) => {
      const before = wiki.streamConnections.length;
      const open = wiki.streamConnections.filter((c) => c.status === 200).length;
      const server = await start();
      await wiki.streaming(open + 1);
      return { server, connection: wiki.streamConnections[before] };
    };
    await wiki.streaming(1);
    const lastId = wiki.emit({ comment: 'the last event before the restart' });
    await vi.waitFor(async () => expect(await saved(wiki.streamUrl), 'saved soon after it arrived').toBe(lastId), { timeout: 15_000, interval: 20 });

    const restarted = await connected(() => restart('outbox-restarted', wiki.streamUrl));
    await restarted.server.close();
    expect(restarted.connection, 'its first connection asked for what came after the saved id').toMatchObject({ lastEventId: lastId, status: 200 });

    // Another stream has a position of its own: none yet, so from the present; saved when the server stops.
    const otherUrl = wiki.streamUrl.replace(/[^/]+$/, 'mediawiki.recentchange');
    const other = await connected(() => restart('outbox-other', otherUrl));
    expect(other.connection?.lastEventId, 'not resumed from another stream\'s id').toBeUndefined();
    const closing = wiki.emit({ comment: 'received just before the server stops' });
    await vi.waitFor(async () => expect(await saved(wiki.streamUrl)).toBe(closing), { timeout: 15_000, interval: 20 });
    expect(await saved(otherUrl), 'an hour before its next periodic save').toBeUndefined();
    await other.server.close();
    expect(await saved(otherUrl), 'saved as it stopped').toBe(closing);
  });
});
