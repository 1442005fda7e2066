/**
 * What the suites of the content service against a fake wiki share (caching, freshness): a
 * database and a second handle on it ("another process"), a manual clock, a fake wiki over a real
 * socket, one engine client, and servers started on either handle with the fetches pointed at the
 * wiki; all closed by `close`, servers first.
 */
import { join } from 'node:path';
import { createEngineClient, type EngineClient } from '../../../src/service/engine-client.js';
import type { WikiClientOptions } from '../../../src/service/content/upstream/index.js';
import type { Db } from '../../../src/service/storage/db.js';
import { FakeWiki, type FakePage } from '../../support/fake-wiki.js';
import type { Backend, TestDatabase } from './backends.js';
import { ManualClock, startTestServer, type TestServer, type TestServerOptions } from './harness.js';

/** A rate limit no suite reaches. */
export const BIG_RATE = { burst: 100_000, perSecond: 100_000 };

export interface WikiSuite {
  database: TestDatabase;
  /** The same database through another handle: what another server process writes with. */
  other: Db;
  clock: ManualClock;
  wiki: FakeWiki;
  /** One engine client on a worker thread, for imports and for servers given it. */
  parser: EngineClient;
  /** Fetches sent to the fake wiki, with short retries and no breaker; `overrides` change any. */
  wikiOptions(overrides?: WikiClientOptions): WikiClientOptions;
  /**
   * A server on `db`, on the suite's clock, its mail in `<database dir>/<name>`, fetching from the
   * fake wiki with BIG_RATE (both overridable through `options.content`).
   */
  start(db: Db, name: string, options?: Omit<TestServerOptions, 'outboxDir' | 'clock'>): Promise<TestServer>;
  /** Closes the servers, then runs `afterServers` (what the servers used: buses), then the rest. */
  close(afterServers?: () => Promise<void>): Promise<void>;
}

export async function openWikiSuite(backend: Backend, pages: readonly FakePage[] = []): Promise<WikiSuite> {
  const database = await backend.open();
  const other = await database.connectAgain();
  const clock = new ManualClock();
  const wiki = await FakeWiki.start(pages);
  const parser = createEngineClient({ threads: 1 });
  const servers: TestServer[] = [];
  const wikiOptions = (overrides: WikiClientOptions = {}): WikiClientOptions => ({
    resolveOrigin: wiki.resolveOrigin,
    contact: 'tests',
    baseDelayMs: 5,
    maxDelayMs: 20,
    attemptTimeoutMs: 2_000,
    deadlineMs: 4_000,
    breakerThreshold: 0,
    ...overrides,
  });
  return {
    database,
    other,
    clock,
    wiki,
    parser,
    wikiOptions,
    start: async (db, name, options = {}) => {
      const server = await startTestServer(db, { ...options, clock, outboxDir: join(database.dir, name), content: { rateLimit: BIG_RATE, wiki: wikiOptions(), ...options.content } });
      servers.push(server);
      return server;
    },
    close: async (afterServers) => {
      for (const server of servers) await server.close();
      await afterServers?.();
      await parser.close();
      await wiki.close();
      await database.dispose();
    },
  };
}
