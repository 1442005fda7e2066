/**
 * The explorer's client (src/explorer/api.ts) against the real service over a real socket: it
 * keeps its session only in the storage it is given, refreshes shortly before expiry and once on
 * a 401, shares one refresh between parallel requests, ends the session when the refresh is
 * refused, revokes on sign-out, and answers the first-login challenge. Clocks are injected.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ApiClient, ApiError, type StorageLike } from '../../src/explorer/api.js';
import { BACKENDS, type TestDatabase } from '../service/helpers/backends.js';
import { addUser, HOUR, startTestServer, type TestServer } from '../service/helpers/harness.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const backend = BACKENDS[0]!; // the client is under test here; the routes run on both backends in parse-route.test.ts
const LIFETIME_MS = 24 * HOUR;

class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

describe('the explorer client against the service', () => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await backend.open();
    server = await startTestServer(database.db, { outboxDir: join(database.dir, 'outbox'), content: { parseThreads: 1 } });
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  /** A client with its own clock, a fresh storage, and a log of the paths it asked for. */
  async function signedIn(options: { temporary?: boolean } = {}) {
    const user = await addUser(database.db, server.clock, options);
    let now = 1_000_000;
    const paths: string[] = [];
    const signedOut: string[] = [];
    const storage = new MemoryStorage();
    const client = new ApiClient({
      base: server.url,
      now: () => now,
      storage,
      onSignedOut: (reason) => signedOut.push(reason),
      fetch: (input, init) => {
        paths.push(new URL(String(input)).pathname);
        return fetch(input, init);
      },
    });
    return { user, client, paths, signedOut, storage, advance: (ms: number) => void (now += ms), clear: () => void (paths.length = 0) };
  }

  const html = '<p>Hello <b>world</b>.</p>';

  test('signs in, calls the API with its token, keeps the session in the given storage only, restores it from there', async () => {
    const { user, client, paths, storage } = await signedIn();
    expect(await client.login(user.username, user.password)).toEqual({ kind: 'signed-in' });
    expect(client.session?.username).toBe(user.username);
    expect((await client.parse({ html })).abstract).toBe('Hello world.');
    expect(paths).toEqual(['/v1/login', '/v2/parse']);
    expect([...storage.items.keys()], 'one entry').toEqual(['wikistruct.explorer.session']);
    const again = new ApiClient({ base: server.url, storage });
    expect(again.session?.accessToken, 'restored').toBe(client.session?.accessToken);
    expect((await again.parse({ html })).abstract).toBe('Hello world.');
  });

  test('refreshes before the call when the token has less than a minute left', async () => {
    const { user, client, paths, advance, clear } = await signedIn();
    await client.login(user.username, user.password);
    const first = client.session!.accessToken;
    clear();
    advance(LIFETIME_MS - 61_000);
    await client.parse({ html });
    expect(paths, 'still fresh: no refresh').toEqual(['/v2/parse']);
    clear();
    advance(2_000);
    server.clock.advance(1_000); // a new token must differ from the old one (iat in seconds)
    await client.parse({ html });
    expect(paths, 'refresh first').toEqual(['/v1/token-refresh', '/v2/parse']);
    expect(client.session!.accessToken).not.toBe(first);
    expect(client.session!.expiresAt, 'a full lifetime from now').toBeGreaterThan(1_000_000 + LIFETIME_MS);
  });

  test('parallel requests that find the token stale share one refresh', async () => {
    const { user, client, paths, advance, clear } = await signedIn();
    await client.login(user.username, user.password);
    clear();
    advance(LIFETIME_MS);
    await Promise.all([client.parse({ html }), client.parse({ html }), client.parse({ html })]);
    expect(paths.filter((p) => p === '/v1/token-refresh'), 'one refresh').toHaveLength(1);
    expect(paths.filter((p) => p === '/v2/parse')).toHaveLength(3);
  });

  test('a 401 the client did not expect (its clock behind the server’s) is refreshed once and retried', async () => {
    const { user, client, paths, clear } = await signedIn();
    await client.login(user.username, user.password);
    clear();
    server.clock.advance(LIFETIME_MS + HOUR); // the token expired by the server's clock only
    expect((await client.parse({ html })).abstract).toBe('Hello world.');
    expect(paths).toEqual(['/v2/parse', '/v1/token-refresh', '/v2/parse']);
  });

  test('a refresh refused (revoked elsewhere) ends the session: told once, storage cleared, the call fails with the service message', async () => {
    const { user, client, signedOut, storage } = await signedIn();
    await client.login(user.username, user.password);
    const revoke = await server.post('/token-revoke', { refresh_token: client.session!.refreshToken });
    expect(revoke.status).toBe(200);
    const failure = await client.parse({ html }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(401);
    expect(client.session, 'signed out').toBeUndefined();
    expect(storage.items.size, 'nothing left in storage').toBe(0);
    expect(signedOut, 'told why').toHaveLength(1);
    expect(signedOut[0]).toMatch(/^Your session ended: .+\. Sign in again\.$/);
  });

  test('sign-out revokes the refresh token and forgets the session', async () => {
    const { user, client, storage, paths } = await signedIn();
    await client.login(user.username, user.password);
    const refreshToken = client.session!.refreshToken;
    await client.signOut();
    expect(paths.at(-1)).toBe('/v1/token-revoke');
    expect(client.session).toBeUndefined();
    expect(storage.items.size).toBe(0);
    const refused = await server.post('/token-refresh', { username: user.username, refresh_token: refreshToken });
    expect(refused.status, 'the refresh token no longer works').toBe(401);
    await expect(client.parse({ html }), 'no session, no call').rejects.toMatchObject({ status: 401, message: 'not signed in' });
  });

  test('service errors arrive as ApiError with the service message and status; a wrong password too', async () => {
    const { user, client } = await signedIn();
    await expect(client.login(user.username, 'wrong password')).rejects.toMatchObject({ status: 401 });
    await client.login(user.username, user.password);
    await expect(client.parse({ html: '' })).rejects.toMatchObject({ status: 422, message: 'html: must not be empty' });
    await expect(client.source('Nowhere', 'enwiki')).rejects.toMatchObject({ status: 404, message: 'no stored article "Nowhere" in enwiki (sources are kept for stored and fetched articles only)' });
  });

  test('a temporary password: the challenge, then a new password, then signed in', async () => {
    const { user, client } = await signedIn({ temporary: true });
    const first = await client.login(user.username, user.password);
    expect(first.kind).toBe('new-password-required');
    if (first.kind !== 'new-password-required') return;
    await client.setNewPassword(user.username, first.session, 'a brand new passphrase 42');
    expect(client.session?.username).toBe(user.username);
    expect((await client.parse({ html })).abstract).toBe('Hello world.');
  });
});
