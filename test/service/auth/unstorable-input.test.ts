/**
 * Text the database cannot hold (NUL) or cannot store faithfully (a lone surrogate) in any field
 * of any /v1 endpoint: a 422 Message naming the field, before a single statement reaches the
 * database. Over a real socket, on both databases.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { BACKENDS, type TestDatabase } from '../helpers/backends.js';
import { startTestServer, type TestServer } from '../helpers/harness.js';
import { recordingDb, type RecordingDb } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

/** A valid body per endpoint: each field in turn is spoiled, the others stay valid. */
const BODIES: Record<string, Record<string, string>> = {
  '/login': { username: 'alice', password: 'some password' },
  '/token-refresh': { username: 'alice', refresh_token: 'some-refresh-token' },
  '/token-revoke': { refresh_token: 'some-refresh-token' },
  '/forgot-password': { username: 'alice' },
  '/forgot-password-confirm': { username: 'alice', password: 'a new passphrase', confirmation_code: '123456' },
  '/change-password': { access_token: 'a.b.c', previous_password: 'old passphrase', proposed_password: 'a new passphrase' },
  '/new-password-required': { session: 'some-session', username: 'alice', new_password: 'a new passphrase' },
};

const SPOILERS: Array<{ name: string; insert: string; message: string }> = [
  { name: 'NUL', insert: '\u0000', message: 'must not contain NUL (\\u0000)' },
  { name: 'a lone high surrogate', insert: '\uD83D', message: 'must not contain a lone UTF-16 surrogate (not valid Unicode)' },
  { name: 'a lone low surrogate', insert: '\uDE00', message: 'must not contain a lone UTF-16 surrogate (not valid Unicode)' },
];

describe.each(BACKENDS)('unstorable text on $name', (backend) => {
  let database: TestDatabase;
  let recorder: RecordingDb;
  let server: TestServer;
  beforeAll(async () => {
    if (backend.skip !== undefined) return;
    database = await backend.open();
    recorder = recordingDb(database.db);
    server = await startTestServer(recorder, { outboxDir: join(database.dir, 'outbox') });
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  test.skipIf(backend.skip !== undefined)('every field of every endpoint: 422 naming the field, and no query', async () => {
    let cases = 0;
    for (const [path, body] of Object.entries(BODIES)) {
      for (const field of Object.keys(body)) {
        for (const spoiler of SPOILERS) {
          const value = `${body[field]?.slice(0, 3)}${spoiler.insert}${body[field]?.slice(3)}`;
          const before = recorder.statements.length;
          const reply = await server.post(path, { ...body, [field]: value });
          const what = `${path} with ${spoiler.name} in ${field}`;
          expect([reply.status, reply.body], `${what}: a 422 Message naming the field`).toEqual([422, { message: `${field}: ${spoiler.message}`, status: 422 }]);
          expect(recorder.statements.slice(before), `${what}: no statement reached the database`).toEqual([]);
          cases += 1;
        }
      }
    }
    expect(cases, 'every field of every endpoint was tried with each').toBe(15 * SPOILERS.length);
    expect(server.logs.some((line) => line.includes('"level":50')), 'nothing was logged as an error').toBe(false);
  });

  test.skipIf(backend.skip !== undefined)('a surrogate pair (an emoji) is ordinary text', async () => {
    const reply = await server.post('/login', { username: 'emoji😀user', password: 'password with 😀' });
    expect([reply.status, reply.body['message']], 'an unknown account, answered normally').toEqual([401, 'incorrect username or password']);
  });
});
