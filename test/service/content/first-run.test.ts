/**
 * The first-run session as real processes, as the README tells a new user: `wikistruct import`,
 * then `wikistruct serve` on a fresh data directory prints the admin password once, then login,
 * structured contents, refresh and revoke over HTTP.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { ArticleSchema } from '../../../src/schema/article.js';
import { templateDir } from '../helpers/backends.js';
import { MAIN, ROOT, wikistruct } from '../../support/cli.js';
import { envelope, structuredContents, writeEnvelopes } from './support.js';

vi.setConfig({ testTimeout: 180_000 });

const ADMIN_UNSET = { WIKISTRUCT_ADMIN_PASSWORD: '', WIKISTRUCT_ADMIN_USERNAME: '' };
const ENV = { ...process.env, DATABASE_URL: '', ...ADMIN_UNSET };
const run = (args: string[]): ReturnType<typeof wikistruct> => wikistruct(args, { env: ADMIN_UNSET });

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('first run', () => {
  test('import, serve (admin password printed once), login, structured contents, refresh, revoke', async () => {
    const data = mkdtempSync(join(tmpdir(), 'wikistruct-first-run-'));
    dirs.push(data);
    cpSync(await templateDir(), join(data, 'pglite'), { recursive: true }); // skip a 10 s initdb
    const inputs = writeEnvelopes(join(data, 'inputs'), [envelope({ project: 'enwiki', language: 'en', title: 'Josephine Baker', revision: 42 })]);

    const imported = await run(['import', inputs, '--data', data, '--jobs', '1']);
    expect([imported.code, imported.stdout.trim()], 'import prints a summary').toEqual([
      0,
      expect.stringMatching(/^imported 1 records in [\d.]+ s: 1 new, 0 replaced by a newer revision, 0 already stored at this or a newer revision, 0 skipped \(not articles\), 0 failed$/),
    ]);

    const server = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--port', '0', '--data', data, '--offline'], {
      cwd: ROOT,
      env: { ...ENV, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => server.on('close', resolve));
    let out = '';
    try {
      const { url, password } = await new Promise<{ url: string; password: string }>((resolve, reject) => {
        server.stderr.on('data', (c: Buffer) => (out += c.toString()));
        server.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const url = /"url":"(http:\/\/[^"]+)"/.exec(out)?.[1];
          const password = /password: (\S+)/.exec(out)?.[1];
          if (url !== undefined && password !== undefined) resolve({ url, password });
        });
        server.on('close', () => reject(new Error(`serve exited early: ${out}`)));
      });
      expect(out.match(/password: /g)?.length, 'the password is printed once').toBe(1);
      const locked = await run(['import', inputs, '--data', data]);
      expect(locked.code, 'import refuses while the server holds the embedded database').toBe(1);
      expect(locked.stderr, 'naming the server').toContain(`pid ${server.pid}`);
      expect(out.split('\n').filter((l) => l.startsWith('{') && l.includes(password)), 'and never in a log line').toEqual([]);

      const post = async (path: string, body: unknown) => {
        const r = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: r.status, body: (await r.json()) as Record<string, string> };
      };
      const login = await post('/v1/login', { username: 'admin', password });
      expect(login.status, 'login as admin').toBe(200);
      const filters = { filters: [{ field: 'is_part_of.identifier', value: 'enwiki' }] };
      const article = await structuredContents(url, 'Josephine_Baker', { token: login.body['access_token']!, body: filters });
      expect(article.status, 'structured contents').toBe(200);
      expect(ArticleSchema.array().safeParse(article.json).success, 'valid Articles').toBe(true);

      const refreshed = await post('/v1/token-refresh', { username: 'admin', refresh_token: login.body['refresh_token'] });
      expect(refreshed.status, 'refresh').toBe(200);
      expect((await structuredContents(url, 'Josephine_Baker', { token: refreshed.body['access_token']!, body: filters })).status, 'the refreshed token works').toBe(200);
      expect((await post('/v1/token-revoke', { refresh_token: login.body['refresh_token'] })).status, 'revoke').toBe(200);
      expect((await structuredContents(url, 'Josephine_Baker', { token: refreshed.body['access_token']!, body: filters })).status, 'revoked: 401').toBe(401);
      for (const path of ['/healthz', '/readyz']) expect((await fetch(`${url}${path}`)).status, path).toBe(200);
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited, 'serve exits cleanly').toBe(0);

    const again = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--port', '0', '--data', data, '--offline'], { cwd: ROOT, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let second = '';
    await new Promise<void>((resolve, reject) => {
      again.stdout.on('data', (c: Buffer) => {
        second += c.toString();
        if (second.includes('"url"')) resolve();
      });
      again.on('close', () => reject(new Error(`serve exited early: ${second}`)));
    });
    again.kill('SIGTERM');
    expect(second, 'a second start creates no account and prints no password').not.toContain('password:');
  });
});
