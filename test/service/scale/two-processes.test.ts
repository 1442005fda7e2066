/**
 * Two service processes on one database behave as one (docs/scale-out.md, "A service of many
 * processes"). Each "process" is an app of its own on its own socket, with its own database
 * handle (on the PostgreSQL server: its own pool) and its own shared-state connection (LISTEN
 * client or Redis connections); on PGlite, which one process alone may open, the two apps share
 * the handle as they would share the process. Every store × database pair runs.
 *
 * The clock never moves in the push tests: process B's caches are inside their poll window
 * throughout, so a refusal (or a new revision) seen by B can only have come from the push. A third
 * app with no bus (C) is the control: it still answers from its cache.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { decodeProtectedHeader } from 'jose';
import { importInputs } from '../../../src/service/content/importer.js';
import { createEngineClient } from '../../../src/service/engine-client.js';
import { ArticleStore } from '../../../src/service/content/store.js';
import type { Topic, Bus } from '../../../src/service/pubsub.js';
import { openSharedState, type SharedState } from '../../../src/service/shared-state.js';
import type { Db } from '../../../src/service/storage/db.js';
import { TEST_DATABASE_URL, type TestDatabase } from '../helpers/backends.js';
import { addUser, ManualClock, startTestServer, type TestServer } from '../helpers/harness.js';
import { envelope, logIn, pageHtml, structuredContents, writeEnvelopes } from '../content/support.js';
import { dropRedisNamespace, STORES, TEST_REDIS_URL, uniqueNamespace } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const RATE = { burst: 10, perSecond: 0.01 }; // 10 requests per 1000 s window: nothing refills during a test

/** Resolves when `bus` next delivers `topic` (after the handlers subscribed before it have run). */
function next(bus: Bus, topic: Topic): Promise<string | undefined> {
  return new Promise((resolve) => {
    const off = bus.subscribe(topic, (payload) => {
      off();
      resolve(payload);
    });
  });
}

describe.each(STORES)('two processes: $name', (store) => {
  const namespace = uniqueNamespace();
  const clock = new ManualClock();
  let database: TestDatabase;
  let dbB: Db;
  let sharedA: SharedState;
  let sharedB: SharedState;
  let a: TestServer;
  let b: TestServer;
  let c: TestServer;

  const open = (db: Db) =>
    openSharedState({
      db,
      clock,
      namespace,
      shareRequestLimit: true,
      ...(store.store === 'redis' ? { redisUrl: TEST_REDIS_URL } : {}),
      ...(store.store === 'database' && store.backend.name === 'postgres' ? { databaseUrl: TEST_DATABASE_URL } : {}),
    });
  const server = (db: Db, shared: SharedState | undefined) =>
    startTestServer(db, {
      clock,
      outboxDir: database.dir,
      offline: true,
      content: { parseThreads: 1, rateLimit: RATE },
      explorer: { rateLimit: RATE },
      ...(shared === undefined ? {} : { shared }),
    });
  const importRevision = async (db: Db, title: string, revision: number) => {
    const dir = writeEnvelopes(`${database.dir}/import-${title.replace(/ /g, '_')}-${revision}`, [envelope({ project: 'enwiki', language: 'en', title, revision })]);
    const parser = createEngineClient({ threads: 1 });
    try {
      const summary = await importInputs([dir], { store: new ArticleStore(db, clock), engine: parser });
      expect(summary.failed, 'imported').toBe(0);
    } finally {
      await parser.close();
    }
  };

  beforeAll(async () => {
    if (store.skip !== undefined) return;
    database = await store.backend.open();
    // PGlite: one process, one handle; the server: a pool per process.
    dbB = store.backend.name === 'pglite' ? database.db : await database.connectAgain();
    sharedA = await open(database.db);
    sharedB = await open(dbB);
    a = await server(database.db, sharedA);
    b = await server(dbB, sharedB);
    c = await server(await database.connectAgain(), undefined);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close(), c?.close()]);
    await sharedA?.close();
    await sharedB?.close();
    await database?.dispose();
    if (store.store === 'redis' && store.skip === undefined) await dropRedisNamespace(namespace);
  });

  test.skipIf(store.skip !== undefined)('100 concurrent requests over a limit of 10, split across both: exactly 10 served', async () => {
    await importRevision(database.db, 'Rate Article', 1);
    const user = await addUser(database.db, clock);
    const caller = await logIn(a, user.username, user.password);
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) => structuredContents((i % 2 === 0 ? a : b).url, 'Rate_Article', { token: caller.accessToken })),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length, 'exactly the limit is served').toBe(10);
    expect(statuses.filter((s) => s === 429).length, 'every other request is refused').toBe(90);
    const refused = replies.find((r) => r.status === 429);
    expect(refused?.json, 'a JSON Message').toEqual({ message: `rate limit exceeded; retry in ${1000} s`, status: 429 });
    expect(refused?.headers.get('retry-after'), 'with Retry-After: the rest of the window').toBe('1000');
  });

  test.skipIf(store.skip !== undefined)('/v2/parse: 40 concurrent parses over a limit of 10, split across both: exactly 10 served, from a budget of its own', async () => {
    const user = await addUser(database.db, clock);
    const caller = await logIn(a, user.username, user.password);
    const body = JSON.stringify({ html: pageHtml('enwiki', 'Parsed', 1) });
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${(i % 2 === 0 ? a : b).url}/v2/parse`, { method: 'POST', headers: { authorization: `Bearer ${caller.accessToken}`, 'content-type': 'application/json' }, body }),
      ),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length, 'exactly the limit is served, whichever process parses').toBe(10);
    expect(statuses.filter((s) => s === 429).length, 'every other parse is refused').toBe(30);
    const refused = replies.find((r) => r.status === 429);
    expect(await refused?.json(), 'a JSON Message').toEqual({ message: `rate limit exceeded for parsing; retry in ${1000} s`, status: 429 });
    // The /v2 reads' budget is another: the same caller, its parses spent, still reads.
    expect((await structuredContents(b.url, 'Nothing_Here', { token: caller.accessToken })).status, 'a read is not refused (404: no such article)').toBe(404);
  });

  test.skipIf(store.skip !== undefined)('a revocation on A is refused on B by the push, inside B’s poll window', async () => {
    const user = await addUser(database.db, clock);
    const caller = await logIn(a, user.username, user.password);
    const ask = (s: TestServer) => structuredContents(s.url, 'Nothing_Here', { token: caller.accessToken });
    // 404: the token is good, the article missing. B and C now hold "not revoked" for 2 s.
    expect((await ask(b)).status, 'B accepts the token').toBe(404);
    expect((await ask(c)).status, 'C accepts the token').toBe(404);
    const pushed = next(sharedB.bus, 'revoked');
    const revoked = await a.post('/token-revoke', { refresh_token: caller.refreshToken });
    expect(revoked.status, 'revoked on A').toBe(200);
    await pushed;
    const onB = await ask(b);
    expect([onB.status, (onB.json as { message?: string }).message], 'B refuses, the clock unmoved').toEqual([401, 'invalid, expired or revoked access token']);
    expect((await ask(c)).status, 'C, without the push, still answers from its poll window').toBe(404);
  });

  test.skipIf(store.skip !== undefined)('a newer revision stored through A is served by B at once', async () => {
    const user = await addUser(database.db, clock);
    const caller = await logIn(a, user.username, user.password);
    await importRevision(database.db, 'Moving Article', 1);
    const revisionOn = async (s: TestServer) => {
      const reply = await structuredContents(s.url, 'Moving_Article', { token: caller.accessToken });
      return reply.status === 200 ? (reply.json as { version: { identifier: number } }[])[0]?.version.identifier : reply.status;
    };
    expect(await revisionOn(b), 'B serves revision 1').toBe(1);
    expect(await revisionOn(c), 'C serves revision 1').toBe(1);
    const pushed = next(sharedB.bus, 'article');
    await importRevision(database.db, 'Moving Article', 2);
    expect(await pushed, 'the write is announced').toBe(JSON.stringify(['enwiki', 'Moving Article']));
    expect(await revisionOn(b), 'B serves revision 2, the clock unmoved').toBe(2);
    expect(await revisionOn(c), 'C, without the push, still has revision 1 for its lookup window').toBe(1);
  });

  test.skipIf(store.skip !== undefined)('a key rotation on A: B signs with the new key from its next token', async () => {
    const user = await addUser(database.db, clock);
    const kidOf = async (s: TestServer) => decodeProtectedHeader((await logIn(s, user.username, user.password)).accessToken).kid;
    const before = await kidOf(b);
    const pushed = next(sharedB.bus, 'keys');
    const rotated = await a.app.keys.rotate();
    await pushed;
    expect(rotated, 'a new key').not.toBe(before);
    expect(await kidOf(b), 'B signs with it at once (its signer was cached for a minute)').toBe(rotated);
    expect(await kidOf(c), 'C still signs with the key it read').toBe(before);
  });
});
