/**
 * Issue 22, item 7: ten wrong logins used to lock any known account out of login and password
 * reset for 15 minutes, from everywhere: anyone who knew a user name could keep its owner out.
 * Failures now count per (account, client address), with a slower per-account backstop that holds
 * only addresses the account has not signed in from lately. Real sockets from distinct client
 * addresses (sockets bound to 127.0.0.x), on both databases and with each limiter store (the
 * database's table, Redis).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { openSharedState, type SharedState } from '../../../src/service/shared-state.js';
import { TEST_DATABASE_URL, type TestDatabase } from '../helpers/backends.js';
import { addUser, ManualClock, PASSWORD, startTestServer, type TestServer } from '../helpers/harness.js';
import { dropRedisNamespace, STORES, TEST_REDIS_URL, uniqueNamespace } from '../scale/support.js';
import { postFrom } from './support.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

/** The defaults (10 per pair and 15 minutes, as the attack met them), with a smaller backstop to reach. */
const THROTTLE = { accountBackstopFailures: 12, backstopWindowMs: 60 * 60 * 1000 };
const PAIR_LIMIT = 10;
const ATTACKER = '127.0.0.2';
const OWNER = '127.0.0.3';

describe.each(STORES)('failures throttled per account and address: $name', (store) => {
  const namespace = uniqueNamespace();
  let database: TestDatabase;
  let shared: SharedState;
  let server: TestServer;
  const clock = new ManualClock();
  const login = (from: string, username: string, password: string) => postFrom(server.url, from, '/login', { username, password });

  beforeAll(async () => {
    if (store.skip !== undefined) return;
    database = await store.backend.open();
    shared = await openSharedState({
      db: database.db,
      clock,
      namespace,
      ...(store.store === 'redis' ? { redisUrl: TEST_REDIS_URL } : {}),
      ...(store.store === 'database' && store.backend.name === 'postgres' ? { databaseUrl: TEST_DATABASE_URL } : {}),
    });
    server = await startTestServer(database.db, { clock, shared, outboxDir: join(database.dir, 'outbox'), throttle: THROTTLE });
  });
  afterAll(async () => {
    await server?.close();
    await shared?.close();
    await database?.dispose();
    if (store.store === 'redis' && store.skip === undefined) await dropRedisNamespace(namespace);
  });

  test.skipIf(store.skip !== undefined)('an attacker’s failures lock out the attacker’s address, not the owner at another', async () => {
    const owner = await addUser(database.db, clock);
    for (let i = 0; i < PAIR_LIMIT; i++) expect((await login(ATTACKER, owner.username, `guess ${i} password`)).status, `guess ${i + 1}`).toBe(401);
    const blocked = await login(ATTACKER, owner.username, PASSWORD);
    expect([blocked.status, blocked.body], 'the attacker’s address is held, even with the right password').toEqual([429, { message: 'too many attempts; try again later', status: 429 }]);
    expect((await login(OWNER, owner.username, PASSWORD)).status, 'the owner, at another address, signs in').toBe(200);
    // Password reset too: a guess at a code from the owner's address is judged (401), not refused.
    const reset = await postFrom(server.url, OWNER, '/forgot-password-confirm', { username: owner.username, password: 'a fresh reset passphrase', confirmation_code: '000000' });
    expect(reset.status, 'the owner can still try a reset code').toBe(401);
    const attackerReset = await postFrom(server.url, ATTACKER, '/forgot-password-confirm', { username: owner.username, password: 'a fresh reset passphrase', confirmation_code: '000000' });
    expect(attackerReset.status, 'the attacker’s address is held for reset codes as well').toBe(429);
    clock.advance(15 * 60 * 1000);
    expect((await login(ATTACKER, owner.username, PASSWORD)).status, 'after the window the held address is free again').toBe(200);
  });

  test.skipIf(store.skip !== undefined)('many addresses fill the backstop: strangers are held, the owner at a familiar address is not', async () => {
    const owner = await addUser(database.db, clock);
    expect((await login(OWNER, owner.username, PASSWORD)).status, 'the owner signs in once: the address becomes familiar').toBe(200);
    // 12 failures over 6 addresses, 2 each: under each pair's limit, at the backstop's 12.
    for (let a = 0; a < 6; a++) {
      for (let i = 0; i < 2; i++) expect((await login(`127.0.1.${a + 1}`, owner.username, `spray ${a}.${i} password`)).status).toBe(401);
    }
    const stranger = await login('127.0.1.200', owner.username, PASSWORD);
    expect([stranger.status, stranger.body], 'a new address is held by the backstop, even with the right password').toEqual([429, { message: 'too many attempts; try again later', status: 429 }]);
    expect((await login('127.0.1.1', owner.username, PASSWORD)).status, 'so is an attacking one').toBe(429);
    expect((await login(OWNER, owner.username, PASSWORD)).status, 'the owner at the familiar address signs in').toBe(200);
    clock.advance(THROTTLE.backstopWindowMs);
    expect((await login('127.0.1.200', owner.username, PASSWORD)).status, 'the backstop’s window over, the new address signs in').toBe(200);
  });
});
