/**
 * The storage layer on its own: migrations applied once and tracked, the Db interface's
 * transaction semantics on both backends, the data-directory lock, and the password hash format.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { hashSecret, verifySecret } from '../../src/service/auth/passwords.js';
import { passwordPolicyViolation } from '../../src/service/auth/password-policy.js';
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE } from '../../src/service/storage/lock.js';
import { migrate } from '../../src/service/storage/migrate.js';
import { MIGRATIONS } from '../../src/service/storage/migrations.js';
import { BACKENDS, type TestDatabase } from './helpers/backends.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

describe.each(BACKENDS)('storage on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    if (backend.skip === undefined) database = await backend.open();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  test.skipIf(backend.skip !== undefined)('migrations are recorded and applied once', async () => {
    const rows = await database.db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(rows.map((r) => r.id), 'every migration is recorded').toEqual(MIGRATIONS.map((m) => m.id));
    expect(await migrate(database.db), 'a second start applies nothing').toEqual([]);
    const added = await migrate(database.db, [...MIGRATIONS, { id: '9999_test', statements: ['CREATE TABLE test_added (x int)'] }]);
    expect(added, 'a new migration is applied on the next start').toEqual(['9999_test']);
  });

  test.skipIf(backend.skip !== undefined)('a transaction that throws leaves nothing behind', async () => {
    await database.db.query('CREATE TABLE IF NOT EXISTS tx_probe (x int)');
    await expect(
      database.db.transaction(async (tx) => {
        await tx.query('INSERT INTO tx_probe VALUES (1)');
        throw new Error('abort');
      }),
      'the error reaches the caller',
    ).rejects.toThrow('abort');
    await database.db.transaction((tx) => tx.query('INSERT INTO tx_probe VALUES (2)'));
    const rows = await database.db.query<{ x: number }>('SELECT x FROM tx_probe');
    expect(rows, 'only the committed row is there').toEqual([{ x: 2 }]);
  });
});

describe('data directory lock', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wikistruct-lock-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a live holder is named; a dead holder\'s lock is taken over', () => {
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, command: 'wikistruct serve', url: 'http://127.0.0.1:9999', started_at: 'x' }));
    let error: unknown;
    try {
      acquireDataDirLock(dir, 'wikistruct user');
    } catch (e) {
      error = e;
    }
    expect(error, 'a live holder refuses the lock').toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message, 'the message names pid and address').toContain(`pid ${process.ppid} listening on http://127.0.0.1:9999`);
    // pid 2^22 + 1 exceeds Linux's pid_max: certainly not running.
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 4194305, command: 'wikistruct serve', url: null, started_at: 'x' }));
    const lock = acquireDataDirLock(dir, 'wikistruct user');
    expect(() => acquireDataDirLock(dir, 'wikistruct serve'), 'now held by this process').toThrow(DataDirLockedError);
    lock.release();
    acquireDataDirLock(dir, 'wikistruct serve').release();
  });
});

describe('password hashing and policy', () => {
  test('argon2id with the OWASP parameters; verification', async () => {
    const hash = await hashSecret('some passphrase');
    expect(hash, 'argon2id, m=19456 KiB, t=2, p=1').toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifySecret(hash, 'some passphrase'), 'the right password verifies').toBe(true);
    expect(await verifySecret(hash, 'some passphrasf'), 'a wrong one does not').toBe(false);
    expect(await verifySecret(undefined, 'anything'), 'no stored hash never verifies').toBe(false);
  });

  test('policy messages name the broken rule; code points are counted', () => {
    expect(passwordPolicyViolation('ab', 'x'), 'too short').toMatch(/at least 8/);
    expect(passwordPolicyViolation('😀😃😄😁😆😅😂🤣', 'x'), 'eight emoji are eight characters').toBeUndefined();
    expect(passwordPolicyViolation('QWERTYUIOP', 'x'), 'the common list is case-insensitive').toMatch(/too common/);
    expect(passwordPolicyViolation('Longusername', 'longusername'), 'equal to the username').toMatch(/username/);
  });
});
