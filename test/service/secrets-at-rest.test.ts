/**
 * Issue 22, item 1: another account on the machine read the ES256 private key out of a PGlite WAL
 * file (the data directory was 0755, PGlite writes its files 0666 whatever the umask) and minted
 * an access token. Here, with a real `wikistruct serve` started under umask 000:
 * - the data directory is 0700 and the key secret 0600, and a second, unprivileged account
 *   (`nobody`, through a child process given its uid) can neither list the directory nor read a
 *   WAL file, a database file or the secret, nor open one for writing;
 * - the private key is in no file of the data directory in the clear (every file is searched for
 *   it, after the searcher proved it finds the sealed row), only sealed;
 * - start-up refuses, with one line and exit code 1, a data directory or key secret others can
 *   reach, unless `--allow-shared-data-dir`; and a key sealed under another secret.
 * And on both databases (the PostgreSQL server included, where the row is what others may read):
 * the row holds the key sealed, not in the clear; another secret cannot open it; keys a version
 * before stored in the clear are sealed and retired at start, their tokens still valid.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, calculateJwkThumbprint, SignJWT, decodeProtectedHeader } from 'jose';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { buildApp } from '../../src/service/app.js';
import { KeySecret, KeySecretError } from '../../src/service/auth/key-secret.js';
import { createLogger } from '../../src/service/logger.js';
import { createMailer } from '../../src/service/mailer.js';
import { openPglite } from '../../src/service/storage/pglite.js';
import { MAIN, ROOT, wikistruct } from '../support/cli.js';
import { filesBelow } from '../support/files.js';
import { BACKENDS, templateDir } from './helpers/backends.js';
import { addUser, ManualClock, PASSWORD, startTestServer, TEST_KEY_SECRET } from './helpers/harness.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const NOBODY = 65_534;
const isRoot = process.getuid?.() === 0;
const secondUser = isRoot ? undefined : 'the tests do not run as root, so they cannot act as a second account (nobody)';
if (secondUser !== undefined) console.log(`second-account checks skipped: ${secondUser}`);

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A parent every account may enter (mkdtemp makes 0700 ones), so only the data directory's own mode can keep others out. */
function openParent(): string {
  const parent = mkdtempSync(join(tmpdir(), 'wikistruct-at-rest-'));
  dirs.push(parent);
  chmodSync(parent, 0o755);
  return parent;
}

/** `wikistruct serve` under umask 000, resolved when it listens (or rejected with what it printed when it exits first). */
function serveWithUmask000(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn('/bin/sh', ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, '--import', 'tsx', MAIN, 'serve', '--port', '0', '--no-samples', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', WIKISTRUCT_KEY_SECRET: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const listening = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const url = /"url":"(http:\/\/[^"]+)"/.exec(out)?.[1];
      if (url !== undefined) resolve(url);
    });
    child.on('close', () => reject(new Error(`serve exited early: ${out}`)));
  });
  return { child, exited, listening };
}

/** What `nobody` gets trying each operation: "ok" or the error code. */
function asNobody(operations: Record<string, string>): Record<string, string> {
  const script = `
    const fs = require('node:fs');
    const ops = ${JSON.stringify(operations)};
    const out = {};
    for (const [name, op] of Object.entries(ops)) {
      const [kind, path] = op.split(' ');
      try {
        if (kind === 'list') fs.readdirSync(path);
        else if (kind === 'read') fs.readFileSync(path);
        else if (kind === 'write') fs.closeSync(fs.openSync(path, 'r+'));
        else if (kind === 'create') fs.writeFileSync(path, 'x');
        out[name] = 'ok';
      } catch (error) { out[name] = error.code; }
    }
    process.stdout.write(JSON.stringify(out));`;
  const run = spawnSync(process.execPath, ['-e', script], { uid: NOBODY, gid: NOBODY, cwd: '/', encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the child as nobody failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, string>;
}

describe('the embedded data directory of a real `wikistruct serve`', () => {
  test('is private whatever the umask, and holds the private key only sealed', async () => {
    const data = join(openParent(), 'data');
    const server = serveWithUmask000(['--data', data]);
    try {
      const url = await server.listening;
      expect((await fetch(`${url}/healthz`)).status, 'serving').toBe(200);
      expect(statSync(data).mode & 0o777, 'the data directory is 0700').toBe(0o700);
      expect(statSync(join(data, 'key-secret')).mode & 0o777, 'the key secret is 0600').toBe(0o600);
      const files = filesBelow(join(data, 'pglite'));
      const wal = files.find((f) => f.includes(`${join('pglite', 'pg_wal')}/`) && !f.endsWith('.history'));
      const database = files.find((f) => f.includes(`${join('pglite', 'base')}/`));
      expect([wal, database], 'there are WAL and table files to attack').toEqual([expect.any(String), expect.any(String)]);
      const exposed = files.filter((f) => (statSync(f).mode & 0o006) !== 0).length;
      console.log(`PGlite's own modes: ${exposed} of ${files.length} files readable or writable by others, inside the 0700 directory`);
      if (secondUser === undefined) {
        const attempts = asNobody({
          'list the data directory': `list ${data}`,
          'read a WAL file': `read ${wal}`,
          'read a table file': `read ${database}`,
          'write a table file': `write ${database}`,
          'read the key secret': `read ${join(data, 'key-secret')}`,
          'create a file in the data directory': `create ${join(data, 'planted')}`,
        });
        expect(attempts, 'a second account gets nowhere').toEqual({
          'list the data directory': 'EACCES',
          'read a WAL file': 'EACCES',
          'read a table file': 'EACCES',
          'write a table file': 'EACCES',
          'read the key secret': 'EACCES',
          'create a file in the data directory': 'EACCES',
        });
      }
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited, 'serve stops cleanly').toBe(0);

    // Every file, as the owner: the sealed row is found (the search is not blind), the key is not.
    const db = await openPglite(join(data, 'pglite'));
    let sealed: string;
    let privateD: string;
    try {
      const rows = await db.query<{ kid: string; private_jwk: unknown; private_key_sealed: string }>('SELECT kid, private_jwk, private_key_sealed FROM signing_keys');
      expect(rows.length, 'one key').toBe(1);
      expect(rows[0]!.private_jwk, 'no private key in the clear column').toBeNull();
      sealed = rows[0]!.private_key_sealed;
      const secret = new KeySecret(readFileSync(join(data, 'key-secret'), 'utf8').trim(), 'the file');
      privateD = (JSON.parse(secret.open(rows[0]!.kid, sealed)) as { d: string }).d;
    } finally {
      await db.close();
    }
    const contents = filesBelow(data).map((f) => readFileSync(f));
    expect(contents.some((bytes) => bytes.includes(sealed)), 'the sealed key is found in the files: the search sees row contents').toBe(true);
    expect(contents.filter((bytes) => bytes.includes(privateD)).length, 'the private key (its "d") is in no file').toBe(0);
  });

  test('start-up refuses a data directory or key secret others can reach, in one line, unless told otherwise', async () => {
    const parent = openParent();
    const shared = join(parent, 'shared');
    mkdirSync(shared, { mode: 0o755 });
    chmodSync(shared, 0o755);
    const refused = await wikistruct(['serve', '--port', '0', '--no-samples', '--data', shared]);
    expect([refused.code, refused.stderr], 'a 0755 data directory').toEqual([
      1,
      `wikistruct serve: the data directory ${shared} is open to other accounts (mode 0755; a directory of secrets must be 0700); it holds the database and the signing keys: run \`chmod 700 ${shared}\` (as its owner), or start with --allow-shared-data-dir if something else keeps other accounts out\n`,
    ]);
    expect(readdirSync(shared), 'nothing was written in it').toEqual([]);

    cpSync(await templateDir(), join(shared, 'pglite'), { recursive: true }); // skip a 10 s initdb
    const allowed = serveWithUmask000(['--data', shared, '--allow-shared-data-dir']);
    try {
      expect((await fetch(`${await allowed.listening}/healthz`)).status, 'with --allow-shared-data-dir it starts').toBe(200);
    } finally {
      allowed.child.kill('SIGTERM');
    }
    expect(await allowed.exited).toBe(0);

    const tidy = join(parent, 'tidy');
    mkdirSync(tidy, { mode: 0o700 });
    writeFileSync(join(tidy, 'key-secret'), 'a key secret of at least thirty-two characters\n', { mode: 0o644 });
    chmodSync(join(tidy, 'key-secret'), 0o644);
    const readableSecret = await wikistruct(['serve', '--port', '0', '--no-samples', '--data', tidy]);
    expect([readableSecret.code, readableSecret.stderr], 'a key secret others can read').toEqual([
      1,
      `wikistruct serve: the key secret ${join(tidy, 'key-secret')} is open to other accounts (mode 0644; a file of secrets must be 0600): run \`chmod 600 ${join(tidy, 'key-secret')}\`, or start with --allow-shared-data-dir\n`,
    ]);

    const short = await wikistruct(['serve', '--port', '0', '--no-samples', '--data', tidy], { env: { WIKISTRUCT_KEY_SECRET: 'too short' } });
    expect([short.code, short.stderr], 'a key secret too short to be one').toEqual([
      2,
      'wikistruct serve: WIKISTRUCT_KEY_SECRET: must be at least 32 characters (make one with `openssl rand -base64 32`)\n',
    ]);
  });

  test('user, import and snapshot refuse to open the database in a directory others can reach, unless told otherwise', async () => {
    const shared = join(openParent(), 'shared');
    mkdirSync(shared, { mode: 0o755 });
    chmodSync(shared, 0o755);
    const problem = `the data directory ${shared} is open to other accounts (mode 0755`;
    const add = await wikistruct(['user', 'add', 'alice', '--email', 'alice@example.test', '--password-stdin', '--data', shared], { stdin: 'alice long passphrase\n' });
    expect([add.code, add.stderr.split('\n').length], 'user add: one line, exit 1').toEqual([1, 2]);
    expect(add.stderr).toContain(`wikistruct user: ${problem}`);
    const imported = await wikistruct(['import', join(ROOT, 'samples'), '--data', shared]);
    expect([imported.code, imported.stderr]).toEqual([1, expect.stringContaining(`wikistruct import: ${problem}`)]);
    const built = await wikistruct(['snapshot', 'build', '--data', shared]);
    expect([built.code, built.stderr]).toEqual([1, expect.stringContaining(`wikistruct snapshot: ${problem}`)]);
    expect(readdirSync(shared), 'no password hash, key or database was written in it').toEqual([]);

    cpSync(await templateDir(), join(shared, 'pglite'), { recursive: true }); // skip a 10 s initdb
    const allowed = await wikistruct(['user', 'add', 'alice', '--email', 'alice@example.test', '--password-stdin', '--data', shared, '--allow-shared-data-dir'], {
      stdin: 'alice long passphrase\n',
    });
    expect([allowed.code, allowed.stdout.trim()], 'with --allow-shared-data-dir it runs').toEqual([0, 'created account alice <alice@example.test>']);
  });

  test('a key sealed under another secret stops the start with one line saying what to do', async () => {
    const data = mkdtempSync(join(tmpdir(), 'wikistruct-other-secret-'));
    dirs.push(data);
    cpSync(await templateDir(), join(data, 'pglite'), { recursive: true });
    const first = serveWithUmask000(['--data', data]);
    try {
      expect((await fetch(`${await first.listening}/healthz`)).status).toBe(200);
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await first.exited).toBe(0);
    const other = await wikistruct(['serve', '--port', '0', '--no-samples', '--data', data], { env: { WIKISTRUCT_KEY_SECRET: 'another secret of at least thirty-two characters' } });
    expect(other.code, 'refused').toBe(1);
    expect(other.stderr.split('\n').filter(Boolean).length, 'in one line').toBe(1);
    expect(other.stderr).toMatch(/^wikistruct serve: signing key [A-Za-z0-9_-]{43} was sealed under another key secret than WIKISTRUCT_KEY_SECRET: give every process on this database the same WIKISTRUCT_KEY_SECRET/);
  });
});

describe.each(BACKENDS)('signing keys at rest on $name', (backend) => {
  test.skipIf(backend.skip !== undefined)('the row holds the key sealed; another secret cannot open it', async () => {
    const database = await backend.open();
    const clock = new ManualClock();
    const server = await startTestServer(database.db, { clock, outboxDir: join(database.dir, 'outbox'), revocationCacheMs: 0 });
    try {
      const user = await addUser(database.db, clock);
      const login = await server.post('/login', { username: user.username, password: PASSWORD });
      expect(login.status).toBe(200);
      const rows = await database.db.query<{ kid: string; text: string; private_jwk: unknown; private_key_sealed: string }>(
        'SELECT kid, t::text AS text, private_jwk, private_key_sealed FROM signing_keys t',
      );
      expect(rows.length).toBe(1);
      const row = rows[0]!;
      expect(row.private_jwk, 'nothing in the clear column').toBeNull();
      expect(row.private_key_sealed, 'the sealed form').toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
      const { d } = JSON.parse(TEST_KEY_SECRET.open(row.kid, row.private_key_sealed)) as { d: string };
      expect(d, 'the test secret opens it').toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(row.text, 'the whole row, as text, does not hold the private key').not.toContain(d);
      const other = new KeySecret('a different secret of at least thirty-two characters', 'the other secret');
      expect(() => other.open(row.kid, row.private_key_sealed), 'another secret cannot open it').toThrow(KeySecretError);
      await expect(
        buildApp({ db: database.db, keySecret: other, clock, logger: createLogger({ level: 'silent' }), mailer: createMailer({ outboxDir: join(database.dir, 'x'), from: 'x@localhost' }) }),
        'an app given another secret does not start',
      ).rejects.toThrow(/was sealed under another key secret than the other secret/);
      // The sealed form is bound to its kid: moved to another row it opens nowhere.
      expect(() => TEST_KEY_SECRET.open('B'.repeat(43), row.private_key_sealed)).toThrow(/does not open/);
    } finally {
      await server.close();
      await database.dispose();
    }
  });

  test.skipIf(backend.skip !== undefined)('keys an earlier version stored in the clear are sealed and retired at start; their tokens still verify', async () => {
    const database = await backend.open();
    const clock = new ManualClock();
    // The row an earlier version wrote: the private JWK in the clear.
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const publicJwk = { ...(await exportJWK(publicKey)), alg: 'ES256', use: 'sig' };
    const kid = await calculateJwkThumbprint(publicJwk);
    await database.db.query('INSERT INTO signing_keys (kid, alg, public_jwk, private_jwk, created_at) VALUES ($1, $2, $3::jsonb, $4::jsonb, $5)', [
      kid,
      'ES256',
      JSON.stringify({ ...publicJwk, kid }),
      JSON.stringify({ ...(await exportJWK(privateKey)), alg: 'ES256', kid }),
      clock.now().toISOString(),
    ]);
    const user = await addUser(database.db, clock);
    // A token the old version signed, for a live refresh token of the user.
    const accountId = (await database.db.query<{ id: string }>('SELECT id FROM accounts WHERE username = $1', [user.username]))[0]!.id;
    const rti = randomUUID();
    await database.db.query('INSERT INTO refresh_tokens (id, account_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
      rti,
      accountId,
      `hash-${rti}`,
      clock.now().toISOString(),
      new Date(clock.now().getTime() + 86_400_000).toISOString(),
    ]);
    const iat = Math.floor(clock.now().getTime() / 1000);
    const oldToken = await new SignJWT({ username: user.username, token_use: 'access', rti })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .setSubject(accountId)
      .setIssuer('wikistruct')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .setJti(randomUUID())
      .sign(privateKey);
    const server = await startTestServer(database.db, { clock, outboxDir: join(database.dir, 'outbox'), revocationCacheMs: 0 });
    try {
      const rows = await database.db.query<{ kid: string; private_jwk: unknown; private_key_sealed: string | null; retired: boolean }>(
        'SELECT kid, private_jwk, private_key_sealed, retired_at IS NOT NULL AS retired FROM signing_keys ORDER BY created_at, kid',
      );
      expect(rows.every((r) => r.private_jwk === null && r.private_key_sealed !== null), 'every key sealed, none in the clear').toBe(true);
      expect(rows.find((r) => r.kid === kid)?.retired, 'the key that was in the clear is retired').toBe(true);
      expect(rows.filter((r) => !r.retired).length, 'a new key signs').toBe(1);
      expect(server.logs.some((l) => l.includes('were sealed and retired')), 'the operator is told').toBe(true);
      await expect(server.app.verifier.verify(oldToken), 'a token the old key signed still verifies until it expires').resolves.toMatchObject({ sub: accountId });
      const fresh = String((await server.post('/login', { username: user.username, password: PASSWORD })).body['access_token']);
      expect(decodeProtectedHeader(fresh).kid, 'new tokens come from the new key').not.toBe(kid);
    } finally {
      await server.close();
      await database.dispose();
    }
  });
});
