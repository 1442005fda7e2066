/**
 * server.ts as `wikistruct serve` uses it, in process: the lock file records the address, a
 * request in flight when shutdown starts still gets its answer, and shutdown releases the lock.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { createLogger } from '../../src/service/logger.js';
import { startServer } from '../../src/service/server.js';
import { LOCK_FILE } from '../../src/service/storage/lock.js';
import { BACKENDS, templateDir } from './helpers/backends.js';
import { addUser, PASSWORD, startTestServer } from './helpers/harness.js';

vi.setConfig({ testTimeout: 60_000 });

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('startServer', () => {
  test('graceful shutdown answers the request in flight, then releases the data directory', async () => {
    const data = mkdtempSync(join(tmpdir(), 'wikistruct-server-'));
    dirs.push(data);
    cpSync(await templateDir(), join(data, 'pglite'), { recursive: true });
    const logs: string[] = [];
    const server = await startServer({
      host: '127.0.0.1',
      port: 0,
      dataDir: data,
      only: 'auth',
      samples: false,
      logger: createLogger({ destination: { write: (line: string) => void logs.push(line) } }),
    });
    const lock = JSON.parse(readFileSync(join(data, LOCK_FILE), 'utf8')) as { pid: number; url: string };
    expect(lock, 'the lock names this process and its address').toEqual(expect.objectContaining({ pid: process.pid, url: server.url }));

    // forgot-password costs an argon2 hash (tens of ms): long enough to be in flight at close().
    const inFlight = fetch(`${server.url}/v1/forgot-password`, { method: 'POST', body: JSON.stringify({ username: 'someone' }) });
    // Close only once the server has logged the request's arrival: it is then truly in flight.
    while (!logs.some((l) => l.includes('incoming request') && l.includes('/v1/forgot-password'))) {
      await new Promise((r) => setTimeout(r, 1));
    }
    const closing = server.close();
    const reply = await inFlight;
    expect(reply.status, 'the request in flight is answered').toBe(200);
    await closing;
    await expect(fetch(`${server.url}/healthz`), 'the server no longer accepts connections').rejects.toThrow();
    expect(existsSync(join(data, LOCK_FILE)), 'the lock is released').toBe(false);
    expect(logs.some((l) => l.includes('wikistruct service listening')), 'start is logged').toBe(true);
  });
});

describe('--only: auth and content can run alone', () => {
  test('auth only serves /v1; content only serves no /v1 route but verifies the same tokens', async () => {
    const [pglite] = BACKENDS;
    if (pglite === undefined) throw new Error('no embedded backend');
    const database = await pglite.open();
    const auth = await startTestServer(database.db, { outboxDir: join(database.dir, 'outbox'), only: 'auth', revocationCacheMs: 0 });
    const content = await startTestServer(database.db, { outboxDir: join(database.dir, 'outbox'), only: 'content', revocationCacheMs: 0 });
    try {
      const user = await addUser(database.db, auth.clock);
      const login = await auth.post('/login', { username: user.username, password: PASSWORD });
      expect(login.status, 'the auth-only server logs in').toBe(200);
      expect((await auth.post('/../v2/structured-contents/Foo', {})).status, 'the auth-only server has no content routes').toBe(404);
      expect((await content.post('/../v2/structured-contents/Foo', {})).status, 'the content-only server has them (401 without a token)').toBe(401);
      expect((await content.post('/login', { username: user.username, password: PASSWORD })).status, 'the content-only server has no auth routes').toBe(404);
      await expect(content.app.verifier.verify(String(login.body['access_token'])), 'the content-only server verifies tokens the auth server issued').resolves.toMatchObject({ username: user.username });
    } finally {
      await auth.close();
      await content.close();
      await database.dispose();
    }
  });
});
