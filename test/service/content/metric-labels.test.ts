/**
 * Issue 22, item 6: every made-up project code in a request added a series to
 * `wikistruct_upstream_fetches_total` (200 requests → 200 series), so anyone with a token could
 * grow /metrics and the process without bound. Now only known projects name a series (the default
 * project, the projects the store holds, those whose wiki answered with an article, at most
 * 1,100), the rest count as `other`. Over a real socket against a fake wiki that every project
 * code reaches; the metric is read from /metrics as a scraper would.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createEngineClient } from '../../../src/service/engine-client.js';
import { importInputs } from '../../../src/service/content/importer.js';
import { ProjectLabels } from '../../../src/service/content/service.js';
import { ArticleStore } from '../../../src/service/content/store.js';
import { FakeWiki } from '../../support/fake-wiki.js';
import { BACKENDS, freshDir, type TestDatabase } from '../helpers/backends.js';
import { addUser, startTestServer, type TestServer } from '../helpers/harness.js';
import { envelope, logIn, pageHtml, type Caller, writeEnvelopes } from './support.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const SERIES = 'wikistruct_upstream_fetches_total{';

describe('upstream fetch metric labels', () => {
  let database: TestDatabase;
  let wiki: FakeWiki;
  let server: TestServer;
  let caller: Caller;

  /** The series of the upstream metric, as `project outcome` → count. */
  const series = async (): Promise<Map<string, number>> => {
    const text = (await server.get('/metrics')).text;
    const out = new Map<string, number>();
    for (const line of text.split('\n').filter((l) => l.startsWith(SERIES))) {
      const labels = /project="([^"]*)",outcome="([^"]*)"/.exec(line);
      out.set(`${labels?.[1]} ${labels?.[2]}`, Number(line.split(' ').pop()));
    }
    return out;
  };
  const ask = (project: string, title: string) => caller.contents(title, { filters: [{ field: 'is_part_of.identifier', value: project }] });

  beforeAll(async () => {
    database = await BACKENDS[0]!.open();
    wiki = await FakeWiki.start([{ title: 'Present', html: pageHtml('enwiki', 'Present', 7), revision: 7 }]);
    server = await startTestServer(database.db, {
      outboxDir: join(database.dir, 'outbox'),
      content: {
        parseThreads: 1,
        rateLimit: { burst: 10_000, perSecond: 10_000 },
        wiki: { resolveOrigin: wiki.resolveOrigin, contact: 'tests', baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 1, breakerThreshold: 0 },
      },
    });
    const parser = createEngineClient({ threads: 1 });
    try {
      await importInputs([writeEnvelopes(freshDir('wikistruct-labels'), [envelope({ project: 'frwiki', language: 'fr', title: 'Stored', revision: 3 })])], {
        store: new ArticleStore(database.db, server.clock),
        engine: parser,
      });
    } finally {
      await parser.close();
    }
    const user = await addUser(database.db, server.clock);
    caller = await logIn(server, user.username, user.password);
  });
  afterAll(async () => {
    await server?.close();
    await wiki?.close();
    await database?.dispose();
  });

  test('200 requests with 200 made-up project codes add one series, `other`', async () => {
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => ask(`madeup${i}wiki`, 'Missing_Page')));
    expect(replies.every((r) => r.status === 404), 'each is a 404 from the wiki').toBe(true);
    const after = await series();
    expect([...after.keys()].filter((k) => k.includes('madeup')), 'no series names a made-up code').toEqual([]);
    expect(after.get('other UPSTREAM_NOT_FOUND'), 'all 200 counted under other').toBe(200);
    expect(after.size, 'one series in all').toBe(1);
  });

  test('known projects keep their own series: the default, a stored one, one whose wiki answered', async () => {
    expect((await ask('enwiki', 'Missing_Page')).status, 'the default project, missing page').toBe(404);
    expect((await ask('frwiki', 'Missing_Page')).status, 'a project the store holds, missing page').toBe(404);
    expect((await ask('dewiki', 'Present')).status, 'a project whose wiki answers').toBe(200);
    expect((await ask('dewiki', 'Missing_Page')).status, 'and then a miss there').toBe(404);
    const after = await series();
    expect(Object.fromEntries([...after].filter(([k]) => !k.startsWith('other')))).toEqual({
      'enwiki UPSTREAM_NOT_FOUND': 1,
      'frwiki UPSTREAM_NOT_FOUND': 1,
      'dewiki ok': 1,
      'dewiki UPSTREAM_NOT_FOUND': 1,
    });
  });
});

describe('ProjectLabels', () => {
  test('at most MAX_PROJECT_LABELS projects are ever named, even if every wiki answers', async () => {
    let asked = 0;
    const labels = new ProjectLabels({ hasProject: async () => (asked++, false) }, 'enwiki');
    const names = new Set<string>();
    for (let i = 0; i < ProjectLabels.MAX_PROJECT_LABELS + 500; i++) names.add(await labels.label(`w${i}wiki`, true));
    expect(names.size, 'the cap, plus other').toBe(ProjectLabels.MAX_PROJECT_LABELS);
    expect(names.has('other')).toBe(true);
    expect(await labels.label('enwiki', false), 'a known one stays named').toBe('enwiki');
    expect(await labels.label('unknownwiki', false), 'an unknown failure past the cap').toBe('other');
    expect(asked, 'the store was never asked: answered fetches and a full set decide alone').toBe(0);
  });

  test('a store that fails to answer makes the label other, not an error', async () => {
    const labels = new ProjectLabels({ hasProject: () => Promise.reject(new Error('database down')) }, 'enwiki');
    expect(await labels.label('frwiki', false)).toBe('other');
  });
});
