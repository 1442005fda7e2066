/**
 * Real SMTP: the service sends the reset code to an in-process smtp-server on loopback, the test
 * reads the code from the received mail and completes the whole forgot-password flow.
 */
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createMailer } from '../../src/service/mailer.js';
import { BACKENDS, type TestDatabase } from './helpers/backends.js';
import { addUser, eventually, PASSWORD, startTestServer, type TestServer } from './helpers/harness.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

interface Received {
  to: string[];
  data: string;
}

describe.each(BACKENDS)('forgot-password over SMTP on $name', (backend) => {
  let database: TestDatabase;
  let server: TestServer;
  let smtp: SMTPServer;
  const inbox: Received[] = [];

  beforeAll(async () => {
    if (backend.skip !== undefined) return;
    database = await backend.open();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const address = smtp.server.address();
    if (address === null || typeof address === 'string') throw new Error('smtp-server not on TCP');
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${address.port}`, outboxDir: join(database.dir, 'unused-outbox'), from: 'wikistruct <no-reply@example.test>' });
    server = await startTestServer(database.db, { outboxDir: join(database.dir, 'unused-outbox'), mailer });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => (smtp === undefined ? resolve() : smtp.close(() => resolve())));
    await database?.dispose();
  });

  test.skipIf(backend.skip !== undefined)('the code arrives by SMTP and resets the password end to end', async () => {
    const user = await addUser(database.db, server.clock);
    const session = (await server.post('/login', { username: user.username, password: PASSWORD })).body;
    const asked = await server.post('/forgot-password', { username: user.username.toUpperCase() });
    expect(asked.status, 'forgot-password answers 200').toBe(200);
    const mail = await eventually(() => {
      const found = inbox.find((m) => m.to.includes(user.email));
      if (found === undefined) throw new Error('no mail yet');
      return found;
    });
    expect(mail.data, 'the mail comes from the configured sender').toContain('From: wikistruct <no-reply@example.test>');
    const code = /Confirmation code: (\d{6})/.exec(mail.data)?.[1];
    expect(code, 'the mail holds a six-digit code').toBeDefined();
    const confirmed = await server.post('/forgot-password-confirm', { username: user.username, password: 'set by the mailed code', confirmation_code: code });
    expect([confirmed.status, confirmed.body['status']], 'the mailed code confirms the reset').toEqual([200, 200]);
    const login = await server.post('/login', { username: user.username, password: 'set by the mailed code' });
    expect(login.status, 'the new password logs in').toBe(200);
    expect((await server.post('/login', { username: user.username, password: PASSWORD })).status, 'the old one does not').toBe(401);
    const refresh = await server.post('/token-refresh', { username: user.username, refresh_token: session['refresh_token'] });
    expect(refresh.status, 'the refresh token from before the reset was revoked').toBe(401);
    expect(server.logs.join(''), 'the code never reaches the logs').not.toContain(String(code));
  });

  test.skipIf(backend.skip !== undefined)('no mail is sent for an unknown account', async () => {
    const before = inbox.length;
    const reply = await server.post('/forgot-password', { username: 'nobody-here' });
    expect(reply.status, 'same 200 answer').toBe(200);
    // Every mail a request starts is sent by the time drain resolves (the SMTP server has it then):
    // after it, silence means nothing was sent, not that it has not arrived yet.
    await server.app.drain();
    expect(inbox.length, 'nothing was delivered').toBe(before);
    const known = await addUser(database.db, server.clock);
    await server.post('/forgot-password', { username: known.username });
    await server.app.drain();
    expect(inbox.filter((m) => m.to.includes(known.email)), 'control: for a known account, drain does wait for the mail').toHaveLength(1);
  });
});
