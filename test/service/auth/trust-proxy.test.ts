/**
 * Behind a reverse proxy every client reaches the service from the proxy's address, so the login
 * throttle of issue 22 (per account and client address) would again lock an account's owner out
 * along with the attacker. `serve --trust-proxy ADDRESSES` names the proxies whose
 * X-Forwarded-For is believed; nobody else's is. Real sockets from distinct peer addresses.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { BACKENDS, templateDir, type TestDatabase } from '../helpers/backends.js';
import { addUser, ManualClock, PASSWORD, startTestServer, type TestServer } from '../helpers/harness.js';
import { serve, wikistruct } from '../../support/cli.js';
import { postFrom } from './support.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const PROXY = '127.0.0.1';
const STRANGER = '127.0.0.4';
const PAIR_LIMIT = 10;
const embedded = BACKENDS.find((b) => b.name === 'pglite');

describe.each([
  { trusted: true, name: 'with the proxy trusted' },
  { trusted: false, name: 'without --trust-proxy' },
])('logins through a reverse proxy, $name', ({ trusted }) => {
  let database: TestDatabase;
  let server: TestServer;
  const clock = new ManualClock();
  const viaProxy = (client: string, username: string, password: string) =>
    postFrom(server.url, PROXY, '/login', { username, password }, { 'x-forwarded-for': client });

  beforeAll(async () => {
    database = await embedded!.open();
    server = await startTestServer(database.db, { clock, outboxDir: join(database.dir, 'outbox'), ...(trusted ? { trustProxy: [PROXY] } : {}) });
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  test('an attacker behind the proxy is held; the owner behind the same proxy only when it is not trusted', async () => {
    const owner = await addUser(database.db, clock);
    for (let i = 0; i < PAIR_LIMIT; i++) expect((await viaProxy('203.0.113.7', owner.username, `guess ${i} password`)).status).toBe(401);
    expect((await viaProxy('203.0.113.7', owner.username, PASSWORD)).status, 'the attacking client is held').toBe(429);
    const ownerLogin = await viaProxy('198.51.100.9', owner.username, PASSWORD);
    expect(ownerLogin.status, 'the owner, another client behind the proxy').toBe(trusted ? 200 : 429);
  });

  test('a peer that is not a trusted proxy cannot choose its address by header', async () => {
    const owner = await addUser(database.db, clock);
    for (let i = 0; i < PAIR_LIMIT; i++) {
      // A new forged client address each time: believed, it would never reach a pair's limit.
      const forged = await postFrom(server.url, STRANGER, '/login', { username: owner.username, password: `spray ${i} password` }, { 'x-forwarded-for': `192.0.2.${i + 1}` });
      expect(forged.status).toBe(401);
    }
    const held = await postFrom(server.url, STRANGER, '/login', { username: owner.username, password: PASSWORD }, { 'x-forwarded-for': '192.0.2.200' });
    expect(held.status, 'its failures all count against its own address').toBe(429);
  });
});

describe('serve --trust-proxy', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test.each([
    ['nonsense', '"nonsense" is not an IP address or CIDR range'],
    ['10.0.0.0/33', '"10.0.0.0/33" is not an IP address or CIDR range'],
    [',', 'needs at least one address'],
  ])('refuses %j as bad usage', async (value, message) => {
    const run = await wikistruct(['serve', '--trust-proxy', value]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  test('the proxy’s X-Forwarded-For names the client in the request log', async () => {
    const data = mkdtempSync(join(tmpdir(), 'wikistruct-trust-proxy-'));
    dirs.push(data);
    cpSync(await templateDir(), join(data, 'pglite'), { recursive: true }); // skip initdb
    const { child, url, stdout, exited } = await serve(['--port', '0', '--data', data, '--no-samples', '--offline', '--trust-proxy', `${PROXY}, 10.0.0.0/8`]);
    try {
      await postFrom(url, PROXY, '/login', { username: 'nobody', password: 'not the password' }, { 'x-forwarded-for': '198.51.100.23' });
      await postFrom(url, STRANGER, '/login', { username: 'nobody', password: 'not the password' }, { 'x-forwarded-for': '198.51.100.24' });
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    const addresses = stdout()
      .split('\n')
      .flatMap((line) => /"remoteAddress":"([^"]+)"/.exec(line)?.[1] ?? []);
    expect(addresses).toContain('198.51.100.23');
    expect(addresses, 'a stranger’s header is not believed').toContain(STRANGER);
    expect(addresses).not.toContain('198.51.100.24');
  });
});
