/**
 * Timing must not tell which accounts exist or whether a reset code is pending. Timing itself is
 * not asserted (test/service/bench/auth-timing.ts measures it); what is asserted is its cause:
 * the same statements and the same argon2 calls in every case, and a forgot-password reply that
 * does not wait for the work that differs. Over a real socket, on both databases.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { BACKENDS, type TestDatabase } from '../helpers/backends.js';
import { addUser, startTestServer, uniqueName, type Reply, type TestServer } from '../helpers/harness.js';
import { countingMailer, recordingDb, type Argon2Calls, type CountingMailer, type RecordingDb } from './support.js';

const argon2 = vi.hoisted((): Argon2Calls => ({ hash: 0, verify: 0 }));
vi.mock('../../../src/service/auth/passwords.js', async (importOriginal) => {
  const { countingPasswords } = await import('./support.js');
  return countingPasswords(await importOriginal<typeof import('../../../src/service/auth/passwords.js')>(), argon2);
});

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

interface Work {
  status: number;
  body: Record<string, unknown>;
  statements: string[];
  argon2: Argon2Calls;
  mails: number;
}

describe.each(BACKENDS)('equal work whatever the account on $name', (backend) => {
  let database: TestDatabase;
  let recorder: RecordingDb;
  let mailer: CountingMailer;
  let server: TestServer;
  beforeAll(async () => {
    if (backend.skip !== undefined) return;
    database = await backend.open();
    recorder = recordingDb(database.db);
    mailer = countingMailer();
    server = await startTestServer(recorder, { outboxDir: join(database.dir, 'outbox'), mailer });
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  /** Everything one request causes, background work included. */
  const workOf = async (send: () => Promise<Reply>): Promise<Work> => {
    await server.app.drain();
    const before = { statements: recorder.statements.length, mails: mailer.sent.length };
    argon2.hash = 0;
    argon2.verify = 0;
    const reply = await send();
    await server.app.drain();
    return {
      status: reply.status,
      body: reply.body,
      statements: recorder.statements.slice(before.statements),
      argon2: { ...argon2 },
      mails: mailer.sent.length - before.mails,
    };
  };

  test.skipIf(backend.skip !== undefined)('forgot-password: the reply needs only the limiter, the same for every name', async () => {
    const user = await addUser(database.db, server.clock);
    const limiters = /^(SET LOCAL synchronous_commit = off|INSERT INTO auth_throttle )/;
    for (const username of [user.username, uniqueName('ghost')]) {
      const before = recorder.statements.length;
      // Everything but the limiter's statements is held back: the reply must come without it.
      recorder.holdBack = (sql) => !limiters.test(sql);
      const reply = await server.post('/forgot-password', { username });
      const onReplyPath = recorder.statements.slice(before);
      recorder.release();
      expect(reply.status, `${username}: answered while the rest was held back`).toBe(200);
      expect(onReplyPath.map((sql) => sql.split(' ').slice(0, 3).join(' ')), `${username}: only the limiter's take before the reply`).toEqual([
        'SET LOCAL synchronous_commit',
        'INSERT INTO auth_throttle',
      ]);
    }
  });

  test.skipIf(backend.skip !== undefined)('forgot-password: the same statements and argon2 calls for an account and an unknown name', async () => {
    const user = await addUser(database.db, server.clock);
    const existing = await workOf(() => server.post('/forgot-password', { username: user.username }));
    const unknown = await workOf(() => server.post('/forgot-password', { username: uniqueName('ghost') }));
    expect([existing.status, existing.body], 'the same answer').toEqual([unknown.status, unknown.body]);
    expect(existing.statements, 'the same statements, in the same order').toEqual(unknown.statements);
    expect(existing.argon2, 'one hash each (the code), no verification').toEqual({ hash: 1, verify: 0 });
    expect(unknown.argon2, 'likewise for the unknown name').toEqual({ hash: 1, verify: 0 });
    expect([existing.mails, unknown.mails], 'only the mail differs, sent after the reply').toEqual([1, 0]);
  });

  test.skipIf(backend.skip !== undefined)('forgot-password-confirm: the same work with a code pending, without one, and for an unknown name', async () => {
    const pending = await addUser(database.db, server.clock);
    await server.post('/forgot-password', { username: pending.username });
    await server.app.drain();
    const idle = await addUser(database.db, server.clock);
    const confirm = (username: string) => () =>
      server.post('/forgot-password-confirm', { username, password: 'a fresh reset passphrase', confirmation_code: '12345' });
    const cases = {
      'code pending': await workOf(confirm(pending.username)),
      'no code pending': await workOf(confirm(idle.username)),
      'unknown name': await workOf(confirm(uniqueName('ghost'))),
    };
    for (const [name, work] of Object.entries(cases)) {
      expect([work.status, work.body['message']], `${name}: a wrong code is 401`).toEqual([401, 'invalid or expired confirmation code']);
      expect(work.statements, `${name}: the same statements as with a code pending`).toEqual(cases['code pending'].statements);
      expect(work.argon2, `${name}: one verification, no hash`).toEqual({ hash: 0, verify: 1 });
    }
    expect(cases['code pending'].statements.length, 'a lookup, whether the address is familiar, and the limiter (its statement in a transaction)').toBe(4);
  });

  test.skipIf(backend.skip !== undefined)('login: the same work for a wrong password and an unknown name', async () => {
    const user = await addUser(database.db, server.clock);
    const wrong = await workOf(() => server.post('/login', { username: user.username, password: 'not the password' }));
    const unknown = await workOf(() => server.post('/login', { username: uniqueName('ghost'), password: 'not the password' }));
    expect([wrong.status, wrong.body], 'the same answer').toEqual([unknown.status, unknown.body]);
    expect(wrong.statements, 'the same statements').toEqual(unknown.statements);
    expect([wrong.argon2, unknown.argon2], 'one verification each').toEqual([{ hash: 0, verify: 1 }, { hash: 0, verify: 1 }]);
  });
});
