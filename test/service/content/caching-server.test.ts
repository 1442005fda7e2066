/**
 * Writes that arrive through the admin socket of a running server (`wikistruct import` and
 * `wikistruct user disable` beside `wikistruct serve` on the embedded database) are writes in the
 * server's own process: the next request sees them, with no waiting out the cache windows.
 * server.ts as `serve` runs it, in process, on the real clock; the windows are 2 s, and nothing
 * here waits: a request right after the command must already see it.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ImportResultSchema } from '../../../src/service/admin-commands.js';
import { ADMIN_SOCKET, sendAdminCommand } from '../../../src/service/admin-socket.js';
import { AccountCommandResultSchema } from '../../../src/service/auth/account-commands.js';
import { createLogger } from '../../../src/service/logger.js';
import { startServer, type RunningServer } from '../../../src/service/server.js';
import { templateDir } from '../helpers/backends.js';
import { envelope, structuredContents, writeEnvelopes } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

describe('writes through the admin socket are seen by the next request', () => {
  let data: string;
  let server: RunningServer;
  let socket: string;
  let token: string;

  const importRevision = async (revision: number) => {
    const dir = writeEnvelopes(join(data, `import-${revision}`), [envelope({ project: 'enwiki', language: 'en', title: 'Socket Article', revision })]);
    const result = await sendAdminCommand(socket, { action: 'import', inputs: [dir], jobs: 1 }, ImportResultSchema, 0);
    expect(result.summary?.failed, 'imported').toBe(0);
  };
  const ask = () => structuredContents(server.url, 'Socket_Article', { token });
  const revision = async () => {
    const reply = await ask();
    return reply.status === 200 ? (reply.json as { version: { identifier: number } }[])[0]?.version.identifier : reply.status;
  };

  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), 'wikistruct-caching-server-'));
    cpSync(await templateDir(), join(data, 'pglite'), { recursive: true });
    server = await startServer({ host: '127.0.0.1', port: 0, dataDir: data, offline: true, samples: false, logger: createLogger({ level: 'silent' }), announce: () => {} });
    socket = join(data, ADMIN_SOCKET);
    const added = await sendAdminCommand(socket, { action: 'add', username: 'reader', email: 'reader@example.test', password: 'a long enough passphrase', temporary: false }, AccountCommandResultSchema);
    expect(added.ok, 'account added').toBe(true);
    const login = await fetch(`${server.url}/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'reader', password: 'a long enough passphrase' }) });
    token = ((await login.json()) as { access_token: string }).access_token;
  });
  afterAll(async () => {
    await server?.close();
    rmSync(data, { recursive: true, force: true });
  });

  test('an import of a newer revision, then a disable', async () => {
    await importRevision(10);
    expect(await revision(), 'the imported revision').toBe(10);
    expect(await revision(), 'again, from the caches').toBe(10);
    await importRevision(11);
    expect(await revision(), 'the newer revision, at once').toBe(11);

    const disabled = await sendAdminCommand(socket, { action: 'disable', username: 'reader' }, AccountCommandResultSchema);
    expect(disabled.ok, 'disabled').toBe(true);
    const refused = await ask();
    expect([refused.status, (refused.json as { message?: string }).message], 'refused at once').toEqual([403, 'account is disabled']);
  });
});
