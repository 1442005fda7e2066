/**
 * Limits that need concurrency or time: the 90-use refresh limit under 200 simultaneous
 * requests, every lifetime (24 h, 90 d, 1 h, 3 min) with the injected clock, throttling with
 * Retry-After, key rotation, and revocation seen by a second server instance on the same database.
 */
import { join } from 'node:path';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Db } from '../../src/service/storage/db.js';
import { BACKENDS, type TestDatabase } from './helpers/backends.js';
import { addUser, codeFromOutbox, DAY, eventually, HOUR, ManualClock, PASSWORD, startTestServer, uniqueName, type TestServer, type TestServerOptions } from './helpers/harness.js';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 120_000 });

describe.each(BACKENDS)('auth limits on $name', (backend) => {
  let database: TestDatabase;
  const servers: TestServer[] = [];
  const start = async ({ db, ...options }: Partial<TestServerOptions> & { db?: Db } = {}) => {
    const server = await startTestServer(db ?? database.db, { outboxDir: join(database.dir, 'outbox'), revocationCacheMs: 0, ...options });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    if (backend.skip === undefined) database = await backend.open();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await database?.dispose();
  });

  test.skipIf(backend.skip !== undefined)('200 concurrent refreshes of a token with 10 uses left: exactly 10 succeed', async () => {
    const server = await start();
    const user = await addUser(database.db, server.clock);
    const tokens = (await server.post('/login', { username: user.username, password: PASSWORD })).body;
    await database.db.query('UPDATE refresh_tokens SET uses = 80 WHERE account_id = (SELECT id FROM accounts WHERE username = $1)', [user.username]);
    const replies = await Promise.all(
      Array.from({ length: 200 }, () => server.post('/token-refresh', { username: user.username, refresh_token: tokens['refresh_token'] })),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length, 'exactly the 10 remaining uses succeed').toBe(10);
    expect(statuses.filter((s) => s === 429).length, 'every other request is refused with 429').toBe(190);
    const refused = replies.find((r) => r.status === 429);
    expect(refused?.body['message'], 'the message says to log in again').toMatch(/maximum number of times/);
    const rows = await database.db.query<{ uses: number }>('SELECT uses FROM refresh_tokens WHERE token_hash IS NOT NULL AND account_id = (SELECT id FROM accounts WHERE username = $1)', [user.username]);
    expect(rows[0]?.uses, 'the counter stops at 90').toBe(90);
  });

  test.skipIf(backend.skip !== undefined)('the 91st refresh of a fresh token is refused', async () => {
    const server = await start();
    const user = await addUser(database.db, server.clock);
    const tokens = (await server.post('/login', { username: user.username, password: PASSWORD })).body;
    const refresh = () => server.post('/token-refresh', { username: user.username, refresh_token: tokens['refresh_token'] });
    for (let i = 1; i <= 90; i++) {
      const r = await refresh();
      if (r.status !== 200) expect(r.status, `refresh ${i} of 90 succeeds`).toBe(200);
    }
    expect((await refresh()).status, 'refresh 91 is 429').toBe(429);
  });

  test.skipIf(backend.skip !== undefined)('access tokens expire after 24 h, refresh tokens after 90 days', async () => {
    const clock = new ManualClock();
    const server = await start({ clock });
    const user = await addUser(database.db, clock);
    const tokens = (await server.post('/login', { username: user.username, password: PASSWORD })).body;
    const access = String(tokens['access_token']);
    clock.advance(DAY - 1000);
    await expect(server.app.verifier.verify(access), 'valid one second before 24 h').resolves.toMatchObject({ username: user.username });
    clock.advance(1000);
    await expect(server.app.verifier.verify(access), 'expired at 24 h').rejects.toMatchObject({ status: 401 });
    const change = await server.post('/change-password', { access_token: access, previous_password: PASSWORD, proposed_password: 'another long passphrase' });
    expect(change.status, 'an expired access token is refused by the endpoint').toBe(401);
    clock.advance(88 * DAY);
    const late = await server.post('/token-refresh', { username: user.username, refresh_token: tokens['refresh_token'] });
    expect(late.status, 'the refresh token still works on day 89').toBe(200);
    clock.advance(DAY);
    const expired = await server.post('/token-refresh', { username: user.username, refresh_token: tokens['refresh_token'] });
    expect(expired.status, 'the refresh token is refused at 90 days').toBe(401);
  });

  test.skipIf(backend.skip !== undefined)('confirmation codes expire after 1 hour, challenge sessions after 3 minutes', async () => {
    const clock = new ManualClock();
    const server = await start({ clock });
    const user = await addUser(database.db, clock);
    await server.post('/forgot-password', { username: user.username });
    const code = await eventually(() => codeFromOutbox(server.outboxDir, user.email));
    clock.advance(HOUR);
    const late = await server.post('/forgot-password-confirm', { username: user.username, password: 'reset to this passphrase', confirmation_code: code });
    expect(late.status, 'a code is refused after one hour').toBe(401);

    const temp = await addUser(database.db, clock, { temporary: true });
    const first = (await server.post('/login', { username: temp.username, password: PASSWORD })).body;
    clock.advance(3 * 60 * 1000 - 1000);
    const inTime = await server.post('/new-password-required', { session: first['session'], username: temp.username, new_password: 'chosen in time passphrase' });
    expect(inTime.status, 'a session works just under 3 minutes').toBe(200);
    const temp2 = await addUser(database.db, clock, { temporary: true });
    const second = (await server.post('/login', { username: temp2.username, password: PASSWORD })).body;
    clock.advance(3 * 60 * 1000);
    const tooLate = await server.post('/new-password-required', { session: second['session'], username: temp2.username, new_password: 'chosen too late passphrase' });
    expect(tooLate.status, 'a session expires at 3 minutes').toBe(401);
  });

  test.skipIf(backend.skip !== undefined)('repeated failures are throttled per account and per address, with Retry-After', async () => {
    const clock = new ManualClock();
    const server = await start({ clock, throttle: { accountAddressFailures: 3, addressFailures: 8, windowMs: 15 * 60 * 1000 } });
    const user = await addUser(database.db, clock);
    for (let i = 0; i < 3; i++) {
      expect((await server.post('/login', { username: user.username, password: 'wrong password here' })).status, `failure ${i + 1} is 401`).toBe(401);
    }
    const blocked = await server.post('/login', { username: user.username, password: PASSWORD });
    expect([blocked.status, blocked.body['status']], 'the account is throttled, even with the right password').toEqual([429, 429]);
    expect(Number(blocked.headers.get('retry-after')), 'Retry-After is the rest of the window').toBe(15 * 60);
    clock.advance(10 * 60 * 1000);
    expect(Number((await server.post('/login', { username: user.username, password: PASSWORD })).headers.get('retry-after')), 'Retry-After counts down').toBe(5 * 60);
    clock.advance(5 * 60 * 1000);
    expect((await server.post('/login', { username: user.username, password: PASSWORD })).status, 'after the window the login works').toBe(200);

    // Per address: spread failures over many names from this one client.
    for (let i = 0; i < 8; i++) await server.post('/login', { username: uniqueName('spray'), password: 'wrong password here' });
    const other = await addUser(database.db, clock);
    const sprayed = await server.post('/login', { username: other.username, password: PASSWORD });
    expect(sprayed.status, 'the client address is throttled across accounts').toBe(429);
    expect(sprayed.headers.get('retry-after'), 'with Retry-After').not.toBeNull();
    clock.advance(15 * 60 * 1000);
  });

  test.skipIf(backend.skip !== undefined)('forgot-password mails are limited per account name', async () => {
    const server = await start({ throttle: { resetRequestsPerAccount: 2 } });
    const name = uniqueName('ghost');
    expect((await server.post('/forgot-password', { username: name })).status, 'first request').toBe(200);
    expect((await server.post('/forgot-password', { username: name })).status, 'second request').toBe(200);
    const third = await server.post('/forgot-password', { username: name });
    expect([third.status, third.headers.get('retry-after') !== null], 'third request is 429 with Retry-After').toEqual([429, true]);
  });

  test.skipIf(backend.skip !== undefined)('revocation is seen by a second server instance on the same database', async () => {
    const clock = new ManualClock();
    const a = await start({ clock });
    const b = await start({ clock, db: await database.connectAgain(), revocationCacheMs: 0 });
    const cached = await start({ clock, db: await database.connectAgain(), revocationCacheMs: 2000 });
    const user = await addUser(database.db, clock);
    const tokens = (await a.post('/login', { username: user.username, password: PASSWORD })).body;
    const access = String(tokens['access_token']);
    await expect(b.app.verifier.verify(access), 'instance B accepts a token A signed').resolves.toMatchObject({ username: user.username });
    await expect(cached.app.verifier.verify(access), 'the caching instance accepts it too').resolves.toBeDefined();
    expect((await a.post('/token-revoke', { refresh_token: tokens['refresh_token'] })).status, 'A revokes').toBe(200);
    await expect(b.app.verifier.verify(access), 'B refuses the access token at once').rejects.toMatchObject({ status: 401 });
    const change = await b.post('/change-password', { access_token: access, previous_password: PASSWORD, proposed_password: 'another long passphrase' });
    expect(change.status, "B's endpoints refuse it too").toBe(401);
    const refresh = await b.post('/token-refresh', { username: user.username, refresh_token: tokens['refresh_token'] });
    expect(refresh.status, 'B refuses the revoked refresh token').toBe(401);
    // The documented staleness bound: a cached "not revoked" answer lives at most 2 s.
    await expect(cached.app.verifier.verify(access), 'within its 2 s cache bound the instance may still accept').resolves.toBeDefined();
    clock.advance(2000);
    await expect(cached.app.verifier.verify(access), 'after the bound it refuses').rejects.toMatchObject({ status: 401 });
  });

  test.skipIf(backend.skip !== undefined)('key rotation keeps old tokens valid until they expire', async () => {
    const clock = new ManualClock();
    const server = await start({ clock });
    const user = await addUser(database.db, clock);
    const before = String((await server.post('/login', { username: user.username, password: PASSWORD })).body['access_token']);
    const oldKid = decodeProtectedHeader(before).kid;
    const newKid = await server.app.keys.rotate();
    const after = String((await server.post('/login', { username: user.username, password: PASSWORD })).body['access_token']);
    expect(decodeProtectedHeader(after).kid, 'new tokens are signed with the new key').toBe(newKid);
    const kids = ((await server.get('/v1/.well-known/jwks.json')).body['keys'] as Array<{ kid: string }>).map((k) => k.kid);
    expect(kids, 'the JWKS publishes the old and the new key').toEqual(expect.arrayContaining([oldKid, newKid]));
    await expect(server.app.verifier.verify(before), 'a token signed with the retired key still verifies').resolves.toBeDefined();
    clock.advance(DAY + 10 * 60 * 1000);
    const later = ((await server.get('/v1/.well-known/jwks.json')).body['keys'] as Array<{ kid: string }>).map((k) => k.kid);
    expect(later, 'once its tokens have expired the retired key leaves the JWKS').not.toContain(oldKid);
    expect(later, 'the current key stays').toContain(newKid);
  });
});

describe.each(BACKENDS)('purging expired rows on $name', (backend) => {
  test.skipIf(backend.skip !== undefined)('expired rows go, rows that still matter stay', async () => {
    const database = await backend.open();
    const clock = new ManualClock();
    const server = await startTestServer(database.db, { clock, outboxDir: join(database.dir, 'outbox'), revocationCacheMs: 0 });
    try {
      const user = await addUser(database.db, clock);
      const temp = await addUser(database.db, clock, { temporary: true });
      await server.post('/login', { username: user.username, password: PASSWORD }); // refresh token A, expires on day 90
      await server.post('/login', { username: temp.username, password: PASSWORD }); // a challenge session
      await server.post('/login', { username: user.username, password: 'wrong password here' }); // a throttle counter
      await server.post('/forgot-password', { username: user.username }); // a reset code, written after the reply
      await server.app.drain();
      clock.advance(89 * DAY);
      await server.post('/login', { username: user.username, password: PASSWORD }); // refresh token B, expires on day 179
      expect(await server.app.purge(), 'on day 89 the session, code and counters go; the refresh tokens stay').toEqual({
        refreshTokens: 0,
        challenges: 1,
        resetCodes: 1,
        // The reset name's counter and the temporary account's two (its address pair and its
        // backstop: its login was from an address it did not know yet); the address's and the
        // user's were renewed by the login on day 89.
        throttleCounters: 3,
        // The temporary account's sign-in address of day 0; the user's was renewed on day 89.
        familiarAddresses: 1,
      });
      clock.advance(DAY + 12 * HOUR);
      expect((await server.app.purge()).refreshTokens, 'A, expired half a day ago, stays: its access tokens may still be valid').toBe(0);
      clock.advance(12 * HOUR + 1000);
      expect((await server.app.purge()).refreshTokens, 'A goes a day after its expiry').toBe(1);
      const left = await database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM refresh_tokens');
      expect(left[0]?.n, 'B stays').toBe(1);
    } finally {
      await server.close();
      await database.dispose();
    }
  });
});
