/**
 * Snapshots on a schedule, over a real socket on both storage backends: a server that holds
 * articles builds its snapshots (structured and regular) in the background when it starts, again
 * when its interval has passed (an injected timer: the test moves time), and when asked after an
 * import; never two builds at once across processes (the database lease); regular snapshots are
 * listed, described and downloaded (with Range) like structured ones, each line the envelope
 * /v2/articles answers; sizes are in MB as the Enterprise API writes them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { importInputs } from '../../../src/service/content/importer.js';
import { ArticleStore } from '../../../src/service/content/store.js';
import { createEngineClient, type EngineClient } from '../../../src/service/engine-client.js';
import { acquireBuildLease, LEASE_MS } from '../../../src/service/snapshots/build-lease.js';
import { readSidecar, sizeOf } from '../../../src/service/snapshots/layout.js';
import { DEFAULT_RETRY_MS } from '../../../src/service/snapshots/scheduler.js';
import { BACKENDS, freshDir, type TestDatabase } from '../helpers/backends.js';
import { addUser, DAY, HOUR, ManualClock, startTestServer, type TestServer } from '../helpers/harness.js';
import { ManualTimer } from '../helpers/manual-timer.js';
import { call, ndjsonLines, untar, type Answer } from './enterprise-support.js';
import { envelope, logIn, writeEnvelopes } from './support.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

interface SnapshotInfo {
  identifier: string;
  version: string;
  date_modified: string;
  size: { value: number; unit_text: string };
}

describe('snapshot sizes', () => {
  test('megabytes (10^6 bytes) to three decimals, as the Enterprise API writes them', () => {
    expect([sizeOf(0), sizeOf(2_000), sizeOf(1_964_879), sizeOf(17_650_000)]).toEqual([
      { value: 0, unit_text: 'MB' },
      { value: 0.002, unit_text: 'MB' },
      { value: 1.965, unit_text: 'MB' },
      { value: 17.65, unit_text: 'MB' },
    ]);
  });

  test('a sidecar written before, with the size in bytes, is read with its size in MB', async () => {
    const dir = freshDir('wikistruct-old-sidecar');
    const old = {
      identifier: 'enwiki_namespace_0',
      version: 'e2d6849ebf1cd778feb53f6d7f009501',
      date_modified: '2026-11-23T01:27:40.512Z',
      is_part_of: { identifier: 'enwiki' },
      namespace: { identifier: 0 },
      size: { value: 1_964_879, unit_text: 'B' },
      file: 'enwiki_namespace_0-e2d6849ebf1cd778feb53f6d7f009501.tar.gz',
      articles: 44,
      engine_version: 'some-engine',
    };
    writeFileSync(join(dir, 'enwiki_namespace_0.json'), JSON.stringify(old));
    expect(await readSidecar(dir, 'enwiki_namespace_0')).toEqual({ ...old, size: { value: 1.965, unit_text: 'MB' }, bytes: 1_964_879 });
  });
});

describe.each(BACKENDS)('background snapshot builds on $name', (backend) => {
  const skip = backend.skip !== undefined;
  let database: TestDatabase;
  let parser: EngineClient;
  const clock = new ManualClock();
  const timer = new ManualTimer(clock);
  let dir: string;
  let server: TestServer;
  let token: string;
  let account: Awaited<ReturnType<typeof addUser>>;
  const as = (path: string, init: Parameters<typeof call>[2] = {}): Promise<Answer> => call(server.url, path, { token, ...init });
  /** Moves time (the access token lives a day: a new one after). */
  const advance = async (ms: number): Promise<void> => {
    timer.advance(ms);
    token = (await logIn(server, account.username, account.password)).accessToken;
  };
  const importArticles = async (envelopes: Record<string, unknown>[]) => {
    const summary = await importInputs([writeEnvelopes(freshDir('wikistruct-schedule-import'), envelopes)], { store: new ArticleStore(database.db, clock), engine: parser });
    expect(summary.failed, 'imported').toBe(0);
  };
  const info = async (path: string): Promise<SnapshotInfo> => {
    const reply = await as(path);
    expect(reply.status, path).toBe(200);
    return reply.json as SnapshotInfo;
  };
  /** The names in a download, in their order. */
  const namesIn = async (path: string): Promise<string[]> => {
    const reply = await as(path);
    expect(reply.status, path).toBe(200);
    return ndjsonLines(await untar(reply.bytes)).map((line) => (JSON.parse(line) as { name: string }).name);
  };

  beforeAll(async () => {
    if (skip) return;
    database = await backend.open();
    parser = createEngineClient({ threads: 1 });
    await importArticles([
      envelope({ project: 'enwiki', language: 'en', title: 'Zebra', revision: 10 }),
      envelope({ project: 'enwiki', language: 'en', title: 'Apple', revision: 11 }),
      envelope({ project: 'frwiki', language: 'fr', title: 'Éclair', revision: 12 }),
    ]);
    dir = freshDir('wikistruct-schedule-snapshots');
    server = await startTestServer(database.db, {
      outboxDir: `${database.dir}/outbox`,
      clock,
      offline: true,
      content: { parseThreads: 1, snapshotsDir: dir, rateLimit: { burst: 10_000, perSecond: 10_000 } },
      snapshots: { everyMs: DAY, timer },
    });
    account = await addUser(database.db, clock);
    token = (await logIn(server, account.username, account.password)).accessToken;
  });
  afterAll(async () => {
    await server?.close();
    await parser?.close();
    await database?.dispose();
  });

  test.skipIf(skip)('on start, a server that holds articles builds both kinds in the background, sized in MB', async () => {
    await server.app.snapshots!.idle();
    expect(server.app.snapshots!.history.map((h) => [h.reason, h.outcome]), 'one build, at start').toEqual([['start', 'built']]);
    for (const path of ['/v2/snapshots/structured-contents', '/v2/snapshots']) {
      const list = (await as(path)).json as SnapshotInfo[];
      expect(list.map((s) => s.identifier), `${path}: every stored project`).toEqual(['enwiki_namespace_0', 'frwiki_namespace_0']);
      for (const snapshot of list) {
        const head = await as(`${path}/${snapshot.identifier}/download`, { method: 'HEAD' });
        const length = Number(head.headers.get('content-length'));
        expect(snapshot.size.unit_text, 'MB, as the Enterprise API writes it').toBe('MB');
        expect(Math.abs(snapshot.size.value * 1e6 - length), `${snapshot.identifier}: the length in MB to three decimals`).toBeLessThanOrEqual(500);
      }
    }
  });

  test.skipIf(skip)('a regular snapshot: list, info, download with Range; each line the envelope /v2/articles answers, with article_body', async () => {
    const snapshot = await info('/v2/snapshots/enwiki_namespace_0');
    expect(snapshot, 'the info').toMatchObject({ identifier: 'enwiki_namespace_0', is_part_of: { identifier: 'enwiki' }, in_language: { identifier: 'en' }, namespace: { identifier: 0 } });
    const filtered = await as('/v2/snapshots', { body: { filters: [{ field: 'is_part_of.identifier', value: 'frwiki' }], fields: ['identifier'] } });
    expect(filtered.json, 'filters and fields').toEqual([{ identifier: 'frwiki_namespace_0' }]);
    const download = '/v2/snapshots/enwiki_namespace_0/download';
    const whole = await as(download);
    expect([whole.status, whole.headers.get('etag'), whole.headers.get('content-type')], 'the file').toEqual([200, `"${snapshot.version}"`, 'application/gzip']);
    const cut = Math.floor(whole.bytes.length / 2);
    const first = await as(download, { headers: { range: `bytes=0-${cut - 1}`, 'if-range': `"${snapshot.version}"` } });
    const second = await as(download, { headers: { range: `bytes=${cut}-` } });
    expect([first.status, second.status, first.headers.get('content-range')], 'two pieces').toEqual([206, 206, `bytes 0-${cut - 1}/${whole.bytes.length}`]);
    expect(Buffer.concat([first.bytes, second.bytes]).equals(whole.bytes), 'reassembled').toBe(true);

    const entries = await untar(whole.bytes);
    expect([...entries.keys()], 'named as the Enterprise files').toEqual(['enwiki_namespace_0_0.ndjson']);
    const lines = ndjsonLines(entries);
    const articles = lines.map((line) => JSON.parse(line) as { name: string; article_body: { html?: string } });
    expect(articles.map((a) => a.name), 'title byte order').toEqual(['Apple', 'Zebra']);
    for (const article of articles) {
      expect(article.article_body.html, `${article.name}: its HTML`).toContain(`Lead of ${article.name}.`);
      const onDemand = await as(`/v2/articles/${article.name}?filters=is_part_of.identifier:enwiki`);
      expect(onDemand.json, `${article.name}: what /v2/articles answers`).toEqual([article]);
    }
    expect((await as('/v2/snapshots/dewiki_namespace_0')).status, 'not stored: 404').toBe(404);
  });

  test.skipIf(skip)('the interval: nothing happens before it, a build when it has passed (and nothing on a request path)', async () => {
    const scheduler = server.app.snapshots!;
    const before = await info('/v2/snapshots/structured-contents/enwiki_namespace_0');
    const beforeRegular = await info('/v2/snapshots/enwiki_namespace_0');
    await importArticles([envelope({ project: 'enwiki', language: 'en', title: 'Mango', revision: 20 })]);
    await advance(DAY - HOUR);
    await scheduler.idle();
    // Requests meanwhile read what was published; none of them builds.
    expect((await info('/v2/snapshots/structured-contents/enwiki_namespace_0')).version, 'before the interval: the old snapshot').toBe(before.version);
    expect(scheduler.history.length, 'no build yet').toBe(1);
    await advance(HOUR);
    await scheduler.idle();
    expect(scheduler.history.map((h) => [h.reason, h.outcome]).at(-1), 'the scheduled build').toEqual(['schedule', 'built']);
    const after = await info('/v2/snapshots/structured-contents/enwiki_namespace_0');
    expect(after.version, 'a new structured snapshot').not.toBe(before.version);
    expect(after.date_modified, 'built at the scheduled time').toBe(clock.now().toISOString());
    expect((await info('/v2/snapshots/enwiki_namespace_0')).version, 'and a new regular one').not.toBe(beforeRegular.version);
    expect(await namesIn('/v2/snapshots/enwiki_namespace_0/download'), 'with the new article').toEqual(['Apple', 'Mango', 'Zebra']);
  });

  test.skipIf(skip)('after an import: a build at once; requests that come while one is queued join it', async () => {
    const scheduler = server.app.snapshots!;
    const builds = scheduler.history.length;
    await importArticles([envelope({ project: 'frwiki', language: 'fr', title: 'Albert Einstein', revision: 30 })]);
    scheduler.request('import');
    scheduler.request('import');
    await scheduler.idle();
    expect(scheduler.history.slice(builds).map((h) => [h.reason, h.outcome]), 'one build').toEqual([['import', 'built']]);
    expect(await namesIn('/v2/snapshots/structured-contents/frwiki_namespace_0/download'), 'with the imported article').toEqual(['Albert Einstein', 'Éclair']);
  });

  test.skipIf(skip)('never two builds at once across processes: while another process holds the lease the build waits, then runs', async () => {
    const scheduler = server.app.snapshots!;
    const other = await database.connectAgain();
    const lease = await acquireBuildLease(other, clock, 'another-host pid 1 #000000');
    try {
      expect('busy' in lease, 'the other process builds').toBe(false);
      const again = await acquireBuildLease(database.db, clock);
      expect(again, 'a second builder is refused, told who builds').toEqual({ busy: 'another-host pid 1 #000000' });
      const builds = scheduler.history.length;
      const before = await info('/v2/snapshots/structured-contents/frwiki_namespace_0');
      await importArticles([envelope({ project: 'frwiki', language: 'fr', title: 'Zèbre', revision: 40 })]);
      scheduler.request('import');
      await scheduler.idle();
      expect(scheduler.history.slice(builds).map((h) => h.outcome), 'postponed').toEqual(['busy']);
      expect((await info('/v2/snapshots/structured-contents/frwiki_namespace_0')).version, 'nothing built meanwhile').toBe(before.version);
      if (!('busy' in lease)) await lease.release();
      await advance(DEFAULT_RETRY_MS);
      await scheduler.idle();
      expect(scheduler.history.slice(builds).map((h) => h.outcome), 'tried again once the lease was free').toEqual(['busy', 'built']);
      expect((await info('/v2/snapshots/structured-contents/frwiki_namespace_0')).version, 'built').not.toBe(before.version);
    } finally {
      if (!('busy' in lease)) await lease.release();
    }
  });

  test.skipIf(skip)('a lease whose holder stopped renewing expires and is taken over', async () => {
    const other = await database.connectAgain();
    const dead = await acquireBuildLease(other, clock, 'gone-host pid 2 #000000');
    expect('busy' in dead, 'held').toBe(false);
    expect('busy' in (await acquireBuildLease(database.db, clock)), 'while it lasts: refused').toBe(true);
    clock.advance(LEASE_MS);
    const taken = await acquireBuildLease(database.db, clock);
    expect('busy' in taken, 'expired: taken over').toBe(false);
    if (!('busy' in dead)) expect(await dead.renew(), 'the old holder has lost it').toBe(false);
    if (!('busy' in taken)) await taken.release();
  });
});
