/**
 * Issue 22, item 5 and two of the "noticed" ones, over real sockets on both databases:
 * - a token header that cannot be ours (a NUL in `kid`, another `alg`, `crit`, `jku`, a kid that is
 *   no thumbprint, …) is a 401 like any other bad token, on `/v2/*` and `/v1/change-password`,
 *   decided before any lookup: no statement reaches the database, nothing is logged as an error;
 * - a well-formed `kid` that names no key of ours costs at most one read of the key list per
 *   second, not one query per request;
 * - a token signed with our own key (as with a stolen one) that borrows a live `rti` to name
 *   another account is refused: the account of the refresh token must be the token's `sub`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { BACKENDS, type TestDatabase } from '../helpers/backends.js';
import { addUser, startTestServer, type TestServer } from '../helpers/harness.js';
import { recordingDb, type RecordingDb } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const b64 = (value: unknown): string => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
/** A compact JWS with this header and a plausible payload; the signature is junk. */
const forged = (header: unknown): string =>
  `${b64(header)}.${b64({ sub: randomUUID(), username: 'x', token_use: 'access', rti: randomUUID(), jti: 'j', iat: 1, exp: 4e9, iss: 'wikistruct' })}.${randomBytes(64).toString('base64url')}`;
const KID = 'A'.repeat(43);

/** Headers no token of ours carries; each must be a 401 without a query. */
const BAD_HEADERS: Array<{ name: string; token: string }> = [
  { name: 'a NUL in kid', token: forged({ alg: 'ES256', kid: 'abc\u0000def', typ: 'JWT' }) },
  { name: 'a NUL in a 43-character kid', token: forged({ alg: 'ES256', kid: `${'A'.repeat(21)}\u0000${'A'.repeat(21)}`, typ: 'JWT' }) },
  { name: 'a lone surrogate in kid', token: forged({ alg: 'ES256', kid: '\ud800'.repeat(43), typ: 'JWT' }) },
  { name: 'kid a number', token: forged({ alg: 'ES256', kid: 7, typ: 'JWT' }) },
  { name: 'kid 10,000 characters long', token: forged({ alg: 'ES256', kid: 'A'.repeat(10_000), typ: 'JWT' }) },
  { name: 'no kid', token: forged({ alg: 'ES256', typ: 'JWT' }) },
  { name: 'alg none', token: forged({ alg: 'none', kid: KID }) },
  { name: 'alg HS256', token: forged({ alg: 'HS256', kid: KID }) },
  { name: 'crit', token: forged({ alg: 'ES256', kid: KID, crit: ['exp'], exp: 1 }) },
  { name: 'jku', token: forged({ alg: 'ES256', kid: KID, jku: 'https://evil.example/jwks.json' }) },
  { name: 'an embedded jwk', token: forged({ alg: 'ES256', kid: KID, jwk: { kty: 'EC' } }) },
  { name: 'typ other than JWT', token: forged({ alg: 'ES256', kid: KID, typ: 'at+jwt' }) },
  { name: 'a header that is not JSON', token: `${b64('{"alg":"ES256",')}.${b64({})}.${b64('sig')}` },
  { name: 'a header that is an array', token: `${b64([1])}.${b64({})}.${b64('sig')}` },
  { name: 'two parts', token: `${b64({ alg: 'ES256', kid: KID })}.${b64({})}` },
  { name: 'a token of 5,000 characters', token: `${b64({ alg: 'ES256', kid: KID })}.${'A'.repeat(5000)}.${b64('sig')}` },
];

describe.each(BACKENDS)('token headers and claims on $name', (backend) => {
  let database: TestDatabase;
  let recorder: RecordingDb;
  let server: TestServer;

  const keyQueries = () => recorder.statements.filter((s) => s.includes('signing_keys')).length;
  const v2 = (token: string) => fetch(`${server.url}/v2/structured-contents/Anything`, { headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    if (backend.skip !== undefined) return;
    database = await backend.open();
    recorder = recordingDb(database.db);
    server = await startTestServer(recorder, { outboxDir: join(database.dir, 'outbox'), offline: true, revocationCacheMs: 0, content: { parseThreads: 1 } });
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  test.skipIf(backend.skip !== undefined)('every malformed header is a 401 on /v2 and on /v1/change-password, with no query and no error logged', async () => {
    const before = recorder.statements.length;
    const logsBefore = server.logs.length;
    for (const { name, token } of BAD_HEADERS) {
      const read = await v2(token);
      expect([read.status, await read.json()], `${name}: /v2`).toEqual([401, { message: 'invalid, expired or revoked access token', status: 401 }]);
      expect(read.headers.get('www-authenticate'), `${name}: the challenge`).toBe('Bearer realm="wikistruct", error="invalid_token"');
      const change = await server.post('/change-password', { access_token: token, previous_password: 'anything at all', proposed_password: 'a brand new passphrase' });
      // A body field over 4,096 characters is refused by the body's schema first.
      const expected = token.length > 4096 ? { message: 'access_token: must be at most 4096 characters', status: 422 } : { message: 'invalid, expired or revoked access token', status: 401 };
      expect([change.status, change.body], `${name}: /v1/change-password`).toEqual([expected.status, expected]);
    }
    expect(recorder.statements.slice(before), 'no statement reached the database').toEqual([]);
    const errors = server.logs.slice(logsBefore).filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    expect(errors, 'nothing logged at error level').toEqual([]);
  });

  test.skipIf(backend.skip !== undefined)('made-up well-formed kids: one read of the key list per second, not a query per request', async () => {
    const clock = server.clock;
    clock.advance(60_000); // past any read an earlier test made
    const before = keyQueries();
    const replies = await Promise.all(Array.from({ length: 100 }, () => v2(forged({ alg: 'ES256', kid: randomBytes(32).toString('base64url'), typ: 'JWT' }))));
    expect(replies.map((r) => r.status).every((s) => s === 401), 'every one is a 401').toBe(true);
    expect(keyQueries() - before, '100 made-up kids within one second: one read').toBe(1);
    await v2(forged({ alg: 'ES256', kid: randomBytes(32).toString('base64url'), typ: 'JWT' }));
    expect(keyQueries() - before, 'still within the second: none more').toBe(1);
    clock.advance(1000);
    await v2(forged({ alg: 'ES256', kid: randomBytes(32).toString('base64url'), typ: 'JWT' }));
    expect(keyQueries() - before, 'a second later: one more').toBe(2);
  });

  test.skipIf(backend.skip !== undefined)('a token signed with our key that borrows another account’s rti is refused', async () => {
    const victim = await addUser(database.db, server.clock);
    const attacker = await addUser(database.db, server.clock);
    const login = await server.post('/login', { username: attacker.username, password: attacker.password });
    const genuine = String(login.body['access_token']);
    expect((await v2(genuine)).status, 'the attacker’s own token is good (404: no such article)').toBe(404);
    const { rti, sub } = JSON.parse(Buffer.from(genuine.split('.')[1]!, 'base64url').toString()) as { rti: string; sub: string };
    const victimId = (await database.db.query<{ id: string }>('SELECT id FROM accounts WHERE username = $1', [victim.username]))[0]!.id;
    const signer = await server.app.keys.currentSigner();
    const mint = (claims: { sub: string; username: string }) =>
      new SignJWT({ username: claims.username, token_use: 'access', rti })
        .setProtectedHeader({ alg: 'ES256', kid: signer.kid, typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer('wikistruct')
        .setIssuedAt(Math.floor(server.clock.now().getTime() / 1000))
        .setExpirationTime(Math.floor(server.clock.now().getTime() / 1000) + 3600)
        .setJti(randomUUID())
        .sign(signer.key);
    expect((await v2(await mint({ sub, username: attacker.username }))).status, 'control: a minted token true to its rti passes').toBe(404);
    for (const [what, claims] of [
      ['the victim’s id and name', { sub: victimId, username: victim.username }],
      ['the victim’s id, the attacker’s name', { sub: victimId, username: attacker.username }],
      ['the attacker’s id, the victim’s name', { sub, username: victim.username }],
    ] as const) {
      const reply = await v2(await mint(claims));
      expect(reply.status, what).toBe(401);
      const change = await server.post('/change-password', { access_token: await mint(claims), previous_password: victim.password, proposed_password: 'taken over passphrase' });
      expect(change.status, `${what}: change-password`).toBe(401);
    }
    const relogin = await server.post('/login', { username: victim.username, password: victim.password });
    expect(relogin.status, 'the victim’s password is unchanged').toBe(200);
  });
});
