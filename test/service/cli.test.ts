/**
 * `wikistruct user` and `wikistruct serve` as real processes: account administration, the
 * data-directory lock that refuses a second process on the embedded database (naming the
 * server), graceful shutdown on SIGTERM, and the same commands against the PostgreSQL server.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { quoteIdent } from '../../src/service/storage/postgres.js';
import { BACKENDS, TEST_DATABASE_URL, templateDir } from './helpers/backends.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = join(ROOT, 'src/cli/main.ts');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function wikistruct(args: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('wikistruct user and serve on the embedded database', () => {
  test('accounts are managed by the CLI; a running server locks the data directory', async () => {
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
    const weak = await wikistruct(['user', 'add', 'carol', '--email', 'carol@example.test', '--password-stdin', '--data', data], { stdin: 'password1' });
    expect([weak.code, weak.stderr.trim()], 'the password policy applies').toEqual([1, 'wikistruct user: password: is too common: it is on the list of common passwords']);

    const server = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--port', '0', '--data', data], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => server.on('close', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stderr.on('data', (c: Buffer) => (out += c.toString()));
        server.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const match = /"url":"(http:\/\/[^"]+)"/.exec(out);
          if (match?.[1] !== undefined) resolve(match[1]);
        });
        server.on('close', () => reject(new Error(`serve exited early: ${out}`)));
      });
      const locked = await wikistruct(['user', 'list', '--data', data]);
      expect(locked.code, 'user commands refuse while the server holds the embedded database').toBe(1);
      expect(locked.stderr, 'the refusal names the server pid').toContain(`pid ${server.pid}`);
      expect(locked.stderr, 'and its address').toContain(url);
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
    ]);
    const missing = await wikistruct(['user', 'enable', 'nobody', '--data', data]);
    expect([missing.code, missing.stderr.trim()], 'an unknown account is an error').toEqual([1, 'wikistruct user: no account "nobody"']);
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
