/**
 * The concurrency attacks of issue #11 over a real socket, on both databases and across two
 * server instances with their own database handles: every limit lets exactly its number of
 * attempts through, and an attempt the limit refuses never reaches argon2. argon2 calls are
 * counted by wrapping the real functions (vi.mock), nothing is replaced.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Db } from '../../../src/service/storage/db.js';
import { BACKENDS, type TestDatabase } from '../helpers/backends.js';
import { addUser, DAY, ManualClock, PASSWORD, startTestServer, uniqueName, type Reply, type TestServer, type TestServerOptions } from '../helpers/harness.js';
import { countingMailer, recordingDb, type Argon2Calls } from './support.js';

const argon2 = vi.hoisted((): Argon2Calls => ({ hash: 0, verify: 0 }));
vi.mock('../../../src/service/auth/passwords.js', async (importOriginal) => {
  const { countingPasswords } = await import('./support.js');
  return countingPasswords(await importOriginal<typeof import('../../../src/service/auth/passwords.js')>(), argon2);
});

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const count = (replies: Reply[], status: number) => replies.filter((r) => r.status === status).length;

describe.each(BACKENDS)('throttling under concurrency on $name', (backend) => {
  let database: TestDatabase;
  let other: Db;
  const servers: TestServer[] = [];
  let day = 0;
  /**
   * Two instances, as two processes on one database would be: each with its own handle. Each
   * pair lives a day after the previous one, so no counter (the shared address's above all)
   * carries over from an earlier test.
   */
  const startPair = async (options: Partial<TestServerOptions> = {}, wrap: (db: Db) => Db = (db) => db) => {
    const outboxDir = join(database.dir, 'outbox');
    const clock = new ManualClock(Date.UTC(2026, 0, 1) + ++day * DAY);
    const a = await startTestServer(wrap(database.db), { outboxDir, revocationCacheMs: 0, ...options, clock });
    const b = await startTestServer(wrap(other), { outboxDir, revocationCacheMs: 0, ...options, clock });
    servers.push(a, b);
    return [a, b] as const;
  };
  /** `n` requests at once, alternating between the two instances. */
  const burst = (pair: readonly [TestServer, TestServer], n: number, path: string, body: (i: number) => unknown) =>
    Promise.all(Array.from({ length: n }, (_, i) => pair[i % 2]?.post(path, body(i)) as Promise<Reply>));

  beforeAll(async () => {
    if (backend.skip !== undefined) return;
    database = await backend.open();
    other = await database.connectAgain();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await database?.dispose();
  });

  test.skipIf(backend.skip !== undefined)('300 simultaneous wrong logins for one account: exactly 10 compared, the rest 429', async () => {
    const pair = await startPair();
    const user = await addUser(database.db, pair[0].clock);
    argon2.verify = 0;
    const replies = await burst(pair, 300, '/login', (i) => ({ username: user.username, password: `guess number ${i}` }));
    expect(argon2.verify, 'exactly the 10 allowed attempts were compared against the hash').toBe(10);
    expect([count(replies, 401), count(replies, 429)], '10 wrong-password answers, 290 refusals').toEqual([10, 290]);
    const refused = replies.find((r) => r.status === 429);
    expect([refused?.body, refused?.headers.get('retry-after')], 'a refusal is a Message with Retry-After').toEqual([
      { message: 'too many attempts; try again later', status: 429 },
      String(15 * 60),
    ]);
    const right = await pair[1].post('/login', { username: user.username, password: PASSWORD });
    expect([right.status, argon2.verify], 'then even the right password is refused, uncompared').toEqual([429, 10]);
  });

  test.skipIf(backend.skip !== undefined)('a correct password amid wrong ones does not reset the count: 10 wrong passwords compared in all, not 19', async () => {
    const pair = await startPair();
    const user = await addUser(database.db, pair[0].clock);
    argon2.verify = 0;
    const wrong = (i: number) => ({ username: user.username, password: `wrong guess ${i}` });
    for (let i = 0; i < 9; i++) expect((await pair[i % 2]!.post('/login', wrong(i))).status, `wrong password ${i + 1}`).toBe(401);
    expect((await pair[1].post('/login', { username: user.username, password: PASSWORD })).status, 'the owner signs in').toBe(200);
    const replies = await burst(pair, 300, '/login', (i) => wrong(100 + i));
    expect(count(replies, 401), 'one more wrong password compared: the success gave back its own slot only').toBe(1);
    expect(count(replies, 429), 'the rest refused').toBe(299);
    expect(argon2.verify, '10 wrong and 1 right compared').toBe(11);
  });

  test.skipIf(backend.skip !== undefined)('a burst carrying the right password, once the limit is reached, logs nobody in', async () => {
    const pair = await startPair({ throttle: { accountAddressFailures: 3 } });
    const user = await addUser(database.db, pair[0].clock);
    for (let i = 0; i < 3; i++) await pair[0].post('/login', { username: user.username, password: `wrong ${i} password` });
    argon2.verify = 0;
    const replies = await burst(pair, 50, '/login', (i) => ({ username: user.username, password: i === 49 ? PASSWORD : `guess ${i} password` }));
    expect(count(replies, 429), 'all 50 are refused').toBe(50);
    expect(argon2.verify, 'none was compared').toBe(0);
  });

  test.skipIf(backend.skip !== undefined)('successful logins give their slots back: four waves of 10 against a limit of 10 all succeed', async () => {
    const [a] = await startPair({ throttle: { accountAddressFailures: 10 } });
    const user = await addUser(database.db, a.clock);
    const statuses: number[] = [];
    // In waves of 10: a wave never exceeds the limit, and each success frees its slot for the next.
    for (let wave = 0; wave < 4; wave++) {
      const replies = await Promise.all(Array.from({ length: 10 }, () => a.post('/login', { username: user.username, password: PASSWORD })));
      statuses.push(...replies.map((r) => r.status));
    }
    expect(statuses.filter((s) => s === 200).length, 'every login succeeds').toBe(40);
  });

  test.skipIf(backend.skip !== undefined)('50 simultaneous forgot-password requests for one name: exactly 5 mails', async () => {
    const mailer = countingMailer();
    const pair = await startPair({ mailer, throttle: { addressFailures: 10_000 } });
    const user = await addUser(database.db, pair[0].clock);
    argon2.hash = 0;
    const replies = await burst(pair, 50, '/forgot-password', () => ({ username: user.username }));
    for (const s of pair) await s.app.drain();
    expect([count(replies, 200), count(replies, 429)], '5 accepted, 45 refused').toEqual([5, 45]);
    expect(mailer.sent.filter((m) => m.to === user.email).length, 'exactly 5 mails').toBe(5);
    expect(argon2.hash, 'and 5 codes hashed').toBe(5);
  });

  test.skipIf(backend.skip !== undefined)('50 simultaneous guesses at one reset code: exactly 5 compared; then the code is dead', async () => {
    const mailer = countingMailer();
    const pair = await startPair({ mailer, throttle: { accountAddressFailures: 1000, addressFailures: 10_000 } });
    const user = await addUser(database.db, pair[0].clock);
    await pair[0].post('/forgot-password', { username: user.username });
    await pair[0].app.drain();
    const code = /Confirmation code: (\d+)/.exec(mailer.sent.at(-1)?.text ?? '')?.[1] ?? '';
    const wrong = code === '000000' ? '111111' : '000000';
    argon2.verify = 0;
    const body = (c: string) => ({ username: user.username, password: 'a fresh reset passphrase', confirmation_code: c });
    const replies = await burst(pair, 50, '/forgot-password-confirm', () => body(wrong));
    expect(argon2.verify, 'exactly 5 guesses were compared').toBe(5);
    expect(count(replies, 401), 'every guess is a 401: a dead code is no reason to wait').toBe(50);
    expect((await pair[1].post('/forgot-password-confirm', body(code))).status, 'the right code is now refused too').toBe(401);
    expect(argon2.verify, 'without being compared').toBe(5);
  });

  test.skipIf(backend.skip !== undefined)('300 simultaneous bogus refresh tokens from one address: exactly 20 looked up', async () => {
    const recorders = [recordingDb(database.db), recordingDb(other)];
    let next = 0;
    const pair = await startPair({ throttle: { addressFailures: 20 } }, () => recorders[next++ % 2] as Db);
    const replies = await burst(pair, 300, '/token-refresh', (i) => ({ username: uniqueName('r'), refresh_token: `bogus-${i}` }));
    const spends = recorders.flatMap((r) => r.statements).filter((s) => s.startsWith('UPDATE refresh_tokens r SET uses')).length;
    expect(spends, 'exactly 20 token lookups ran').toBe(20);
    expect([count(replies, 401), count(replies, 429)], '20 invalid-token answers, 280 refusals').toEqual([20, 280]);
  });
});
