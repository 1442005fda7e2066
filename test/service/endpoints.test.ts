/**
 * Every /v1 endpoint through `app.inject()` (the socket does not matter here; http-errors.test.ts
 * and limits.test.ts keep the socket-level ones), its success and each of its error variants, on
 * both storage backends.
 */
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { BACKENDS, type TestDatabase } from './helpers/backends.js';
import { buildApp } from '../../src/service/app.js';
import { requireAccessToken } from '../../src/service/auth/require-access-token.js';
import { createLogger } from '../../src/service/logger.js';
import { createMailer } from '../../src/service/mailer.js';
import { addUser, codeFromOutbox, eventually, ManualClock, PASSWORD, startTestServer, TEST_KEY_SECRET, uniqueName, type TestServer } from './helpers/harness.js';
import { join } from 'node:path';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

describe.each(BACKENDS)('auth endpoints on $name', (backend) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    if (backend.skip !== undefined) return;
    database = await backend.open();
    server = await startTestServer(database.db, { socket: false, outboxDir: join(database.dir, 'outbox'), revocationCacheMs: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  const login = async (username: string, password = PASSWORD) => server.post('/login', { username, password });

  test.skipIf(backend.skip !== undefined)('login returns tokens whose claims and signature check out against the JWKS', async () => {
    const user = await addUser(database.db, server.clock);
    const reply = await login(`  ${user.username.toUpperCase()} `);
    expect(reply.status, 'login succeeds with a username typed in upper case with spaces').toBe(200);
    expect(Object.keys(reply.body).sort(), 'login reply fields').toEqual(['access_token', 'expires_in', 'id_token', 'refresh_token']);
    expect(reply.body['expires_in'], 'expires_in is 24 hours in seconds').toBe(86400);
    expect(reply.headers.get('x-request-id'), 'every reply carries its request id').toMatch(/^[0-9a-f-]{36}$/);

    const access = String(reply.body['access_token']);
    const header = decodeProtectedHeader(access);
    expect(header.alg, 'access token is signed with ES256').toBe('ES256');
    const jwks = await server.get('/v1/.well-known/jwks.json');
    const keys = jwks.body['keys'] as Array<Record<string, unknown>>;
    const jwk = keys.find((k) => k['kid'] === header.kid);
    expect(jwk, 'the signing key is published in the JWKS').toBeDefined();
    expect(jwk?.['d'], 'the JWKS holds no private key material').toBeUndefined();
    const { payload } = await jwtVerify(access, await importJWK(jwk as never, 'ES256'), { currentDate: server.clock.now() });
    expect(payload, 'access token claims').toMatchObject({ username: user.username, token_use: 'access', iss: 'wikistruct' });
    for (const claim of ['sub', 'jti', 'rti', 'iat', 'exp']) expect(payload[claim], `access token has ${claim}`).toBeDefined();
    expect((payload.exp ?? 0) - (payload.iat ?? 0), 'access token lives 24 h').toBe(86400);
    const id = decodeJwt(String(reply.body['id_token']));
    expect(id, 'id token carries username and e-mail').toMatchObject({ username: user.username, email: user.email, token_use: 'id' });
    expect(String(reply.body['refresh_token']), 'refresh token is opaque: 256 bits, base64url').toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test.skipIf(backend.skip !== undefined)('login errors: wrong password, unknown user, disabled account', async () => {
    const user = await addUser(database.db, server.clock);
    const wrong = await login(user.username, 'not the password at all');
    expect([wrong.status, wrong.body], 'wrong password is 401 with a Message').toEqual([401, { message: 'incorrect username or password', status: 401 }]);
    const unknown = await login(uniqueName('ghost'));
    expect([unknown.status, unknown.body['message']], 'unknown user answers exactly like a wrong password').toEqual([401, 'incorrect username or password']);
    await database.db.query('UPDATE accounts SET disabled_at = now() WHERE username = $1', [user.username]);
    const disabled = await login(user.username);
    expect([disabled.status, disabled.body], 'disabled account is 403').toEqual([403, { message: 'account is disabled', status: 403 }]);
  });

  test.skipIf(backend.skip !== undefined)('request validation: 400 for non-JSON, 422 naming the field, 413 above 16 KB, 404', async () => {
    const notJson = await server.postRaw('/login', '{"username": ');
    expect([notJson.status, notJson.body], 'truncated JSON is 400').toEqual([400, { message: 'request body is not valid JSON', status: 400 }]);
    const textPlain = await server.postRaw('/login', 'hello', 'text/plain');
    expect(textPlain.status, 'a text body is 400, not 415').toBe(400);
    const empty = await server.postRaw('/token-revoke', '');
    expect(empty.status, 'an empty body is 400').toBe(400);
    const array = await server.post('/login', []);
    expect([array.status, array.body['message']], 'a JSON array is 422').toEqual([422, 'request body must be a JSON object']);
    const missing = await server.post('/login', { username: 'a' });
    expect([missing.status, missing.body], 'missing field is 422 naming it').toEqual([422, { message: 'password: required field is missing', status: 422 }]);
    const typed = await server.post('/login', { username: 5, password: 'x' });
    expect([typed.status, typed.body['message']], 'wrongly typed field is 422 naming it').toEqual([422, 'username: must be a string']);
    const extra = await server.post('/token-revoke', { refresh_token: 'x', admin: true });
    expect([extra.status, extra.body['message']], 'unknown field is 422 naming it').toEqual([422, 'admin: unexpected field']);
    const blank = await server.post('/forgot-password', { username: '   ' });
    expect([blank.status, blank.body['message']], 'a blank username is 422').toEqual([422, 'username: must not be empty']);
    const big = await server.post('/login', { username: 'a', password: 'x'.repeat(17 * 1024) });
    expect([big.status, big.body['status']], 'a body over 16 KB is refused').toEqual([413, 413]);
    const nowhere = await server.post('/nowhere', {});
    expect([nowhere.status, nowhere.body['status']], 'unknown route is a 404 Message').toEqual([404, 404]);
  });

  test.skipIf(backend.skip !== undefined)('token-refresh: new access and id tokens; errors for wrong user, bad token, disabled account', async () => {
    const user = await addUser(database.db, server.clock);
    const tokens = (await login(user.username)).body;
    const refreshed = await server.post('/token-refresh', { username: user.username, refresh_token: tokens['refresh_token'] });
    expect(refreshed.status, 'refresh succeeds').toBe(200);
    expect(Object.keys(refreshed.body).sort(), 'refresh reply fields').toEqual(['access_token', 'expires_in', 'id_token']);
    expect(decodeJwt(String(refreshed.body['access_token']))['rti'], 'the new access token points at the same refresh token').toBe(
      decodeJwt(String(tokens['access_token']))['rti'],
    );
    const other = await addUser(database.db, server.clock);
    const wrongUser = await server.post('/token-refresh', { username: other.username, refresh_token: tokens['refresh_token'] });
    expect(wrongUser.status, 'a refresh token presented with another username is 401').toBe(401);
    const bogus = await server.post('/token-refresh', { username: user.username, refresh_token: 'bogus' });
    expect([bogus.status, bogus.body['message']], 'an unknown refresh token is 401').toEqual([401, 'invalid, expired or revoked refresh token']);
    await database.db.query('UPDATE accounts SET disabled_at = now() WHERE username = $1', [user.username]);
    const disabled = await server.post('/token-refresh', { username: user.username, refresh_token: tokens['refresh_token'] });
    expect(disabled.status, 'refresh for a disabled account is 403').toBe(403);
  });

  test.skipIf(backend.skip !== undefined)('token-revoke ends the refresh token and its access tokens at once', async () => {
    const user = await addUser(database.db, server.clock);
    const tokens = (await login(user.username)).body;
    const before = await server.app.verifier.verify(String(tokens['access_token']));
    expect(before.username, 'the access token verifies before revocation').toBe(user.username);
    const revoked = await server.post('/token-revoke', { refresh_token: tokens['refresh_token'] });
    expect([revoked.status, revoked.body], 'revoke answers a 200 Message').toEqual([200, { message: 'refresh token revoked', status: 200 }]);
    await expect(server.app.verifier.verify(String(tokens['access_token'])), 'the access token is refused after revocation').rejects.toMatchObject({ status: 401 });
    const refresh = await server.post('/token-refresh', { username: user.username, refresh_token: tokens['refresh_token'] });
    expect(refresh.status, 'the revoked refresh token cannot refresh').toBe(401);
    const change = await server.post('/change-password', { access_token: tokens['access_token'], previous_password: PASSWORD, proposed_password: 'a brand new passphrase' });
    expect(change.status, 'an endpoint taking the access token refuses it').toBe(401);
    const again = await server.post('/token-revoke', { refresh_token: tokens['refresh_token'] });
    expect(again.status, 'revoking twice is idempotent').toBe(200);
    const unknown = await server.post('/token-revoke', { refresh_token: 'never issued' });
    expect(unknown.status, 'revoking an unknown token is 401').toBe(401);
  });

  test.skipIf(backend.skip !== undefined)('change-password: policy, wrong previous password, success revokes every refresh token', async () => {
    const user = await addUser(database.db, server.clock);
    const first = (await login(user.username)).body;
    const second = (await login(user.username)).body;
    const change = (proposed: string, previous = PASSWORD) =>
      server.post('/change-password', { access_token: first['access_token'], previous_password: previous, proposed_password: proposed });
    expect((await change('short')).body['message'], 'too short').toBe('proposed_password: must be at least 8 characters long');
    expect((await change('x'.repeat(257))).body['message'], 'too long').toBe('proposed_password: must be at most 256 characters long');
    expect((await change(user.username.toUpperCase())).body['message'], 'equal to the username').toBe('proposed_password: must not be the same as the username');
    const common = await change('Password123');
    expect([common.status, common.body['message']], 'a common password').toEqual([422, 'proposed_password: is too common: it is on the list of common passwords']);
    expect((await change(' '.repeat(8))).body['message'], 'only spaces').toBe('proposed_password: must not consist only of spaces or control characters');
    expect((await change('\u0007'.repeat(8))).body['message'], 'only control characters').toBe('proposed_password: must not consist only of spaces or control characters');
    expect((await change('aaaaaaaa')).body['message'], 'one character repeated').toBe('proposed_password: must not be one character repeated');
    const same = await change(PASSWORD);
    expect([same.status, same.body['message']], 'the current password').toEqual([422, 'proposed_password: must not be the same as the current password']);
    expect((await change('a brand new passphrase', 'wrong previous')).status, 'wrong previous password is 401').toBe(401);
    const bad = await server.post('/change-password', { access_token: 'not.a.jwt', previous_password: PASSWORD, proposed_password: 'a brand new passphrase' });
    expect(bad.status, 'a malformed access token is 401').toBe(401);
    const idToken = await server.post('/change-password', { access_token: first['id_token'], previous_password: PASSWORD, proposed_password: 'a brand new passphrase' });
    expect(idToken.status, 'an id token is not an access token').toBe(401);
    const ok = await change('a brand new passphrase');
    expect([ok.status, ok.body['status']], 'change succeeds').toEqual([200, 200]);
    for (const tokens of [first, second]) {
      const refresh = await server.post('/token-refresh', { username: user.username, refresh_token: tokens['refresh_token'] });
      expect(refresh.status, 'every refresh token of the account is revoked').toBe(401);
    }
    expect((await login(user.username)).status, 'the old password no longer works').toBe(401);
    expect((await login(user.username, 'a brand new passphrase')).status, 'the new password works').toBe(200);
  });

  test.skipIf(backend.skip !== undefined)('NEW_PASSWORD_REQUIRED: challenge, single-use session, tokens', async () => {
    const user = await addUser(database.db, server.clock, { temporary: true });
    const challenge = await login(user.username);
    expect(challenge.status, 'login with a temporary password succeeds').toBe(200);
    expect(challenge.body['challenge_name'], 'the challenge is named').toBe('NEW_PASSWORD_REQUIRED');
    expect(challenge.body['access_token'], 'no tokens before the new password is set').toBeUndefined();
    const session = String(challenge.body['session']);
    const weak = await server.post('/new-password-required', { session, username: user.username, new_password: 'qwerty123' });
    expect([weak.status, weak.body['message']], 'policy applies to the new password').toEqual([422, 'new_password: is too common: it is on the list of common passwords']);
    const same = await server.post('/new-password-required', { session, username: user.username, new_password: PASSWORD });
    expect([same.status, same.body['message']], 'the temporary password cannot be kept').toEqual([422, 'new_password: must not be the same as the current password']);
    const spaces = await server.post('/new-password-required', { session, username: user.username, new_password: ' '.repeat(12) });
    expect([spaces.status, spaces.body['message']], 'nor can spaces be chosen').toEqual([422, 'new_password: must not consist only of spaces or control characters']);
    const wrongUser = await server.post('/new-password-required', { session, username: 'someone-else', new_password: 'my own new passphrase' });
    expect(wrongUser.status, 'the session belongs to its user only').toBe(401);
    const done = await server.post('/new-password-required', { session, username: user.username, new_password: 'my own new passphrase' });
    expect(done.status, 'the refused attempts did not consume the session').toBe(200);
    expect(Object.keys(done.body).sort(), 'reply fields').toEqual(['access_token', 'expires_in', 'id_token', 'refresh_token', 'session']);
    const replay = await server.post('/new-password-required', { session, username: user.username, new_password: 'yet another passphrase' });
    expect([replay.status, replay.body['message']], 'the session is single use').toEqual([401, 'invalid or expired session']);
    const normal = await login(user.username, 'my own new passphrase');
    expect(normal.body['access_token'], 'the next login returns tokens directly').toBeDefined();
  });

  test.skipIf(backend.skip !== undefined)('forgot-password: same answer for unknown accounts; confirm with the mailed code', async () => {
    const user = await addUser(database.db, server.clock);
    const tokens = (await login(user.username)).body;
    const known = await server.post('/forgot-password', { username: user.username });
    const unknown = await server.post('/forgot-password', { username: uniqueName('ghost') });
    expect([known.status, known.body], 'answer for an existing account').toEqual([unknown.status, unknown.body]);
    expect(known.status, 'forgot-password answers 200').toBe(200);
    const code = await eventually(() => codeFromOutbox(server.outboxDir, user.email));
    expect(server.logs.some((l) => l.includes('.eml') && !l.includes(code)), 'the outbox path is logged, the code is not').toBe(true);
    const confirm = (body: Record<string, unknown>) => server.post('/forgot-password-confirm', { username: user.username, password: 'reset to this passphrase', confirmation_code: code, ...body });
    expect((await confirm({ password: 'short' })).body['message'], 'policy first').toBe('password: must be at least 8 characters long');
    const wrong = await confirm({ confirmation_code: code === '000000' ? '111111' : '000000' });
    expect([wrong.status, wrong.body['message']], 'a wrong code is 401').toEqual([401, 'invalid or expired confirmation code']);
    const ghost = await server.post('/forgot-password-confirm', { username: uniqueName('ghost'), password: 'reset to this passphrase', confirmation_code: code });
    expect(ghost.status, 'an unknown account gets the same 401').toBe(401);
    const ok = await confirm({});
    expect([ok.status, ok.body['status']], 'the right code sets the password').toEqual([200, 200]);
    expect((await confirm({ password: 'and again another one' })).status, 'the code is single use').toBe(401);
    expect((await login(user.username, 'reset to this passphrase')).status, 'the new password works').toBe(200);
    const refresh = await server.post('/token-refresh', { username: user.username, refresh_token: tokens['refresh_token'] });
    expect(refresh.status, 'earlier refresh tokens were revoked').toBe(401);
  });

  test.skipIf(backend.skip !== undefined)('a confirmation code allows at most 5 attempts', async () => {
    const user = await addUser(database.db, server.clock);
    await server.post('/forgot-password', { username: user.username });
    const code = await eventually(() => codeFromOutbox(server.outboxDir, user.email));
    const wrongCode = code === '999999' ? '888888' : '999999';
    for (let i = 0; i < 5; i++) {
      const r = await server.post('/forgot-password-confirm', { username: user.username, password: 'reset to this passphrase', confirmation_code: wrongCode });
      expect(r.status, `wrong attempt ${i + 1} is 401`).toBe(401);
    }
    const right = await server.post('/forgot-password-confirm', { username: user.username, password: 'reset to this passphrase', confirmation_code: code });
    expect(right.status, 'after 5 wrong attempts even the right code is refused').toBe(401);
  });

  test.skipIf(backend.skip !== undefined)('health, OpenAPI document, and logs without secrets', async () => {
    const health = await server.get('/healthz');
    expect([health.status, health.body], 'health check').toEqual([200, { status: 'ok' }]);
    const openapi = await server.get('/v1/openapi.json');
    const paths = Object.keys(openapi.body['paths'] as object);
    for (const p of ['/v1/login', '/v1/token-refresh', '/v1/token-revoke', '/v1/forgot-password', '/v1/forgot-password-confirm', '/v1/change-password', '/v1/new-password-required']) {
      expect(paths, `OpenAPI documents ${p}`).toContain(p);
    }
    const user = await addUser(database.db, server.clock, { password: 'a very secret passphrase' });
    const before = server.logs.length;
    const reply = await login(user.username, 'a very secret passphrase');
    await server.post('/token-refresh', { username: user.username, refresh_token: reply.body['refresh_token'] });
    const lines = server.logs.slice(before).join('');
    expect(lines, 'the requests were logged').toContain('/v1/login');
    expect(lines, 'request ids are logged').toContain('"reqId"');
    expect(lines, 'the password is not in the logs').not.toContain('a very secret passphrase');
    for (const field of ['refresh_token', 'access_token', 'id_token']) {
      expect(lines, `the ${field} is not in the logs`).not.toContain(String(reply.body[field]));
    }
  });

  test.skipIf(backend.skip !== undefined)('a password or token a client puts in the query string is not logged (issue 22)', async () => {
    const user = await addUser(database.db, server.clock, { password: 'query string passphrase' });
    const before = server.logs.length;
    const secret = encodeURIComponent('query string passphrase');
    await server.fetch(`/v1/login?username=${user.username}&password=${secret}&Access_Token=tok3n-in-the-url&refresh%5Ftoken=r3fresh-in-the-url`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user.username, password: 'query string passphrase' }),
    });
    await server.fetch(`/v2/structured-contents/X?limit=2&code=123456&session=s3ssion-in-the-url`);
    const lines = server.logs.slice(before);
    const urls = lines.map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url).filter((url) => url !== undefined);
    expect(urls, 'the request lines are logged, secret values replaced').toEqual([
      `/v1/login?username=${user.username}&password=[redacted]&Access_Token=[redacted]&refresh%5Ftoken=[redacted]`,
      '/v2/structured-contents/X?limit=2&code=[redacted]&session=[redacted]',
    ]);
    for (const value of [secret, 'query string passphrase', 'tok3n-in-the-url', 'r3fresh-in-the-url', '123456', 's3ssion-in-the-url']) {
      expect(lines.join(''), `${value} is not in the logs`).not.toContain(value);
    }
  });
});

describe.each(BACKENDS.filter((b) => b.name === 'pglite'))('requireAccessToken, the guard the content API uses ($name)', (backend) => {
  test('Bearer access tokens pass; missing, malformed and revoked ones are 401 Messages', async () => {
    const database = await backend.open();
    const clock = new ManualClock();
    const app = await buildApp({
      db: database.db,
      keySecret: TEST_KEY_SECRET,
      clock,
      revocationCacheMs: 0,
      logger: createLogger({ level: 'silent' }),
      mailer: createMailer({ outboxDir: join(database.dir, 'outbox'), from: 'x@localhost' }),
    });
    app.fastify.get('/v2/probe', { preHandler: requireAccessToken(app.verifier) }, async (request) => ({ user: request.accessClaims?.username }));
    await app.fastify.listen({ host: '127.0.0.1', port: 0 });
    try {
      const address = app.fastify.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
      const user = await addUser(database.db, clock);
      const login = (await (await fetch(`${base}/v1/login`, { method: 'POST', body: JSON.stringify({ username: user.username, password: PASSWORD }) })).json()) as Record<string, string>;
      const probe = (authorization?: string) => fetch(`${base}/v2/probe`, authorization === undefined ? {} : { headers: { authorization } });
      const ok = await probe(`Bearer ${login['access_token']}`);
      expect([ok.status, await ok.json()], 'a valid access token passes').toEqual([200, { user: user.username }]);
      const none = await probe();
      expect([none.status, ((await none.json()) as { status: number }).status], 'no token is a 401 Message').toEqual([401, 401]);
      expect((await probe('Basic abc')).status, 'another scheme is 401').toBe(401);
      await fetch(`${base}/v1/token-revoke`, { method: 'POST', body: JSON.stringify({ refresh_token: login['refresh_token'] }) });
      expect((await probe(`Bearer ${login['access_token']}`)).status, 'a revoked token is 401').toBe(401);
    } finally {
      await app.fastify.close();
      await database.dispose();
    }
  });
});

describe.each(BACKENDS)('unexpected failures on $name', (backend) => {
  test.skipIf(backend.skip !== undefined)('a lost database is a generic 500; the details go to the log only', async () => {
    const database = await backend.open();
    const server = await startTestServer(database.db, { outboxDir: join(database.dir, 'outbox') });
    try {
      await database.db.close();
      const reply = await server.post('/login', { username: 'someone', password: 'some password' });
      expect([reply.status, reply.body], 'generic 500 Message').toEqual([500, { message: 'internal server error', status: 500 }]);
      expect(server.logs.some((l) => l.includes('"level":50') && l.includes('request failed')), 'the error is logged').toBe(true);
    } finally {
      await server.close();
      await database.dispose().catch(() => {});
    }
  });
});

describe.each(BACKENDS)('remaining error variants on $name', (backend) => {
  let database: TestDatabase;
  let server: TestServer;
  beforeAll(async () => {
    if (backend.skip !== undefined) return;
    database = await backend.open();
    server = await startTestServer(database.db, {
      outboxDir: join(database.dir, 'outbox'),
      revocationCacheMs: 0,
      throttle: { accountAddressFailures: 2 },
    });
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });
  const disable = (username: string) => database.db.query('UPDATE accounts SET disabled_at = now() WHERE username = $1', [username]);

  const REQUIRED: Record<string, string> = {
    '/login': 'username',
    '/token-refresh': 'username',
    '/token-revoke': 'refresh_token',
    '/forgot-password': 'username',
    '/forgot-password-confirm': 'username',
    '/change-password': 'access_token',
    '/new-password-required': 'session',
  };
  test.skipIf(backend.skip !== undefined)('every endpoint: 400 for a non-JSON body, 422 naming a missing field', async () => {
    for (const [path, field] of Object.entries(REQUIRED)) {
      const notJson = await server.postRaw(path, 'username=alice', 'application/x-www-form-urlencoded');
      expect([notJson.status, notJson.body['status']], `${path}: a form body is 400`).toEqual([400, 400]);
      const missing = await server.post(path, {});
      expect([missing.status, missing.body['message']], `${path}: a missing field is 422 naming it`).toEqual([422, `${field}: required field is missing`]);
    }
  });

  test.skipIf(backend.skip !== undefined)('disabled accounts: 403 from change-password, forgot-password-confirm and new-password-required', async () => {
    const user = await addUser(database.db, server.clock);
    const tokens = (await server.post('/login', { username: user.username, password: PASSWORD })).body;
    await server.post('/forgot-password', { username: user.username });
    const code = await eventually(() => codeFromOutbox(server.outboxDir, user.email));
    const temp = await addUser(database.db, server.clock, { temporary: true });
    const challenge = (await server.post('/login', { username: temp.username, password: PASSWORD })).body;
    await disable(user.username);
    await disable(temp.username);
    const change = await server.post('/change-password', { access_token: tokens['access_token'], previous_password: PASSWORD, proposed_password: 'a brand new passphrase' });
    expect([change.status, change.body['message']], 'change-password with a disabled account').toEqual([403, 'account is disabled']);
    const confirm = await server.post('/forgot-password-confirm', { username: user.username, password: 'reset to this passphrase', confirmation_code: code });
    expect([confirm.status, confirm.body['message']], 'forgot-password-confirm with a disabled account').toEqual([403, 'account is disabled']);
    const newPassword = await server.post('/new-password-required', { session: challenge['session'], username: temp.username, new_password: 'my own new passphrase' });
    expect([newPassword.status, newPassword.body['message']], 'new-password-required with a disabled account').toEqual([403, 'account is disabled']);
  });

  test.skipIf(backend.skip !== undefined)('429 with Retry-After from change-password and forgot-password-confirm', async () => {
    const user = await addUser(database.db, server.clock);
    const tokens = (await server.post('/login', { username: user.username, password: PASSWORD })).body;
    const change = () => server.post('/change-password', { access_token: tokens['access_token'], previous_password: 'not my password', proposed_password: 'a brand new passphrase' });
    expect((await change()).status, 'first wrong previous password').toBe(401);
    expect((await change()).status, 'second wrong previous password').toBe(401);
    const blocked = await change();
    expect([blocked.status, blocked.headers.get('retry-after') !== null], 'then 429 with Retry-After').toEqual([429, true]);
    const confirm = await server.post('/forgot-password-confirm', { username: user.username, password: 'reset to this passphrase', confirmation_code: '123456' });
    expect([confirm.status, confirm.headers.get('retry-after') !== null], 'the account counter also guards code checks').toEqual([429, true]);
  });

  test.skipIf(backend.skip !== undefined)('a session or a code used by concurrent requests works exactly once', async () => {
    const temp = await addUser(database.db, server.clock, { temporary: true });
    const challenge = (await server.post('/login', { username: temp.username, password: PASSWORD })).body;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => server.post('/new-password-required', { session: challenge['session'], username: temp.username, new_password: `concurrent passphrase ${i}` })),
    );
    expect(answers.filter((a) => a.status === 200).length, 'one session, one success').toBe(1);

    const user = await addUser(database.db, server.clock);
    await server.post('/forgot-password', { username: user.username });
    const code = await eventually(() => codeFromOutbox(server.outboxDir, user.email));
    const confirms = await Promise.all(
      Array.from({ length: 5 }, (_, i) => server.post('/forgot-password-confirm', { username: user.username, password: `concurrent reset passphrase ${i}`, confirmation_code: code })),
    );
    expect(confirms.filter((a) => a.status === 200).length, 'one code, one success').toBe(1);
  });
});
