/**
 * `wikistruct user` and `wikistruct serve` as real processes: account administration, the
 * data-directory lock that refuses a second process on the embedded database (naming the
 * server), graceful shutdown on SIGTERM, and the same commands against the PostgreSQL server.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { quoteIdent } from '../../src/service/storage/postgres.js';
import { BACKENDS, TEST_DATABASE_URL, templateDir } from './helpers/backends.js';
import { serve, wikistruct } from '../support/cli.js';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 60_000 }); // a dozen child processes on a loaded machine

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('wikistruct user and serve on the embedded database', () => {
  test('accounts are managed by the CLI, through the running server while it holds the data directory', async () => {
    const data = mkdtempSync(join(tmpdir(), 'wikistruct-cli-'));
    dirs.push(data);
    cpSync(await templateDir(), join(data, 'pglite'), { recursive: true }); // skip a 10 s initdb

    const alice = await wikistruct(['user', 'add', 'Alice', '--email', 'alice@example.test', '--password-stdin', '--data', data], {
      stdin: 'alice long passphrase\n',
    });
    expect([alice.code, alice.stdout.trim()], 'add with a password from stdin').toEqual([0, 'created account alice <alice@example.test>']);
    const bob = await wikistruct(['user', 'add', 'bob', '--email', 'bob@example.test', '--temporary-password', '--data', data]);
    expect(bob.code, 'add with a generated temporary password').toBe(0);
    const bobPassword = /password: (\S+)/.exec(bob.stdout)?.[1];
    expect(bobPassword, 'the generated password is printed once').toMatch(/^[A-Za-z0-9_-]{20}$/);

    const { child: server, url, exited } = await serve(['--port', '0', '--data', data, '--no-samples']);
    try {
      const lock = JSON.parse(readFileSync(join(data, 'wikistruct.lock'), 'utf8')) as { pid: number; url: string; admin_socket: string };
      expect([lock.pid, lock.url], 'the lock names the server pid and address').toEqual([server.pid, url]);
      expect(statSync(lock.admin_socket).mode & 0o777, 'the admin socket is private to its owner').toBe(0o600);
      const carol = await wikistruct(['user', 'add', 'carol', '--email', 'carol@example.test', '--password-stdin', '--data', data], { stdin: 'carol long passphrase' });
      expect([carol.code, carol.stdout.trim()], 'while the server runs, user add goes through it').toEqual([0, 'created account carol <carol@example.test>']);
      const weak = await wikistruct(['user', 'add', 'carol', '--email', 'carol@example.test', '--password-stdin', '--data', data], { stdin: 'password1' });
      expect([weak.code, weak.stderr.trim()], 'the password policy applies').toEqual([1, 'wikistruct user: password: is too common: it is on the list of common passwords']);
      const listed = await wikistruct(['user', 'list', '--data', data]);
      expect(listed.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0]), 'user list through the server').toEqual(['alice', 'bob', 'carol']);
      const carolLogin = await fetch(`${url}/v1/login`, { method: 'POST', body: JSON.stringify({ username: 'carol', password: 'carol long passphrase' }) });
      expect(carolLogin.status, 'the account added through the server logs in at once').toBe(200);
      const login = await fetch(`${url}/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'BOB', password: bobPassword }) });
      expect((await login.json()) as unknown, 'the temporary account gets the new-password challenge').toMatchObject({ challenge_name: 'NEW_PASSWORD_REQUIRED' });
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited, 'serve exits cleanly on SIGTERM').toBe(0);
    expect(existsSync(join(data, 'wikistruct.lock')), 'and releases the lock').toBe(false);

    expect((await wikistruct(['user', 'disable', 'alice', '--data', data])).code, 'disable').toBe(0);
    expect((await wikistruct(['user', 'delete', 'bob', '--data', data])).code, 'delete').toBe(0);
    const list = await wikistruct(['user', 'list', '--data', data]);
    expect(list.stdout.split('\n').filter(Boolean).map((l) => l.split('\t').slice(0, 3)), 'list after disable and delete').toEqual([
      ['alice', 'alice@example.test', 'disabled'],
      ['carol', 'carol@example.test', 'enabled'],
    ]);
    const missing = await wikistruct(['user', 'enable', 'nobody', '--data', data]);
    expect([missing.code, missing.stderr.trim()], 'an unknown account is an error').toEqual([1, 'wikistruct user: no account "nobody"']);

    // A holder without an admin socket (a server that could not open one, or another user command):
    // refused, naming the holder. This test process stands in as the live holder.
    writeFileSync(join(data, 'wikistruct.lock'), JSON.stringify({ pid: process.pid, command: 'wikistruct serve', url: 'http://127.0.0.1:1', started_at: 'x' }));
    const refused = await wikistruct(['user', 'list', '--data', data]);
    expect(refused.code, 'refused while another process holds the embedded database').toBe(1);
    expect(refused.stderr, 'the refusal names the pid and address').toContain(`pid ${process.pid} listening on http://127.0.0.1:1`);
    rmSync(join(data, 'wikistruct.lock'));
  });
});

describe('serve and a supervisor\'s SIGTERM', () => {
  // Signals are caught from before the start (server.ts catchSignals): sent as soon as the
  // "listening" line is out, while the start's first database work still runs, a SIGTERM used to
  // meet node's default action about half the time (the process killed, exit code null).
  test('a SIGTERM sent the moment serve says it listens closes it cleanly, every time', async () => {
    const data = mkdtempSync(join(tmpdir(), 'wikistruct-cli-'));
    dirs.push(data);
    cpSync(await templateDir(), join(data, 'pglite'), { recursive: true });
    for (let round = 0; round < 3; round++) {
      const { child, exited, stdout } = await serve(['--port', '0', '--data', data, '--no-samples']);
      child.kill('SIGTERM');
      expect([await exited, /shutting down/.test(stdout())], `round ${round}: exit code, and the shutdown logged`).toEqual([0, true]);
    }
  });
});

const postgres = BACKENDS.find((b) => b.name === 'postgres');
describe.skipIf(postgres?.skip !== undefined)('wikistruct user on the PostgreSQL server', () => {
  test('user add and list through DATABASE_URL', async () => {
    const schema = `wikistruct_cli_${process.pid}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
    await admin.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
    try {
      const env = { DATABASE_URL: TEST_DATABASE_URL, PGOPTIONS: `-c search_path=${schema}` };
      const add = await wikistruct(['user', 'add', 'dora', '--email', 'dora@example.test', '--password-stdin'], { env, stdin: 'dora long passphrase' });
      expect(add.code, 'add on the server').toBe(0);
      const list = await wikistruct(['user', 'list'], { env });
      expect(list.stdout, 'list on the server').toContain('dora\tdora@example.test\tenabled');
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
      await admin.end();
    }
  });
});
