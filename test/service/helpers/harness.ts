/**
 * Starts the real app on a loopback socket with a manual clock, a log capture and an outbox in
 * a temporary directory, and talks to it with fetch. Nothing of ours is replaced.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp, type App, type AppDeps } from '../../../src/service/app.js';
import { createAccount } from '../../../src/service/auth/admin.js';
import { KeySecret } from '../../../src/service/auth/key-secret.js';
import type { Clock } from '../../../src/service/clock.js';
import { createLogger } from '../../../src/service/logger.js';
import { createMailer, type Mailer } from '../../../src/service/mailer.js';
import type { Db } from '../../../src/service/storage/db.js';

export class ManualClock implements Clock {
  private t: number;
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.t = start;
  }
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** One secret for every test app, so that apps sharing a database (two "processes") open each other's keys. */
export const TEST_KEY_SECRET = new KeySecret('wikistruct test key secret: never for a deployment', 'the test key secret');

export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;

export interface Reply {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
  text: string;
}

/** What the route tests send requests with: `fetch` over the socket, or the same through `app.inject()`. */
export type Fetcher = (path: string, init?: RequestInit) => Promise<Response>;

export interface TestServer {
  /** The socket's origin; without a socket (`socket: false`) an address nothing listens on. */
  url: string;
  /** A request to this app: over its socket, or through `app.inject()` when it has none. */
  fetch: Fetcher;
  app: App;
  clock: ManualClock;
  logs: string[];
  outboxDir: string;
  post(path: string, body: unknown): Promise<Reply>;
  postRaw(path: string, body: string, contentType?: string): Promise<Reply>;
  get(path: string): Promise<Reply>;
  close(): Promise<void>;
}

export interface TestServerOptions extends Partial<Omit<AppDeps, 'db' | 'logger' | 'clock' | 'keySecret'>> {
  keySecret?: KeySecret;
  clock?: ManualClock;
  outboxDir: string;
  mailer?: Mailer;
  /**
   * false: no socket; requests go through `app.inject()` (route tests, where the socket does not
   * matter). Default true: the tests of timeouts, slow bodies, raw request lines need a socket.
   */
  socket?: boolean;
}

/** A fetch that hands the request to `app.inject()`: the same reply, no socket. */
export function injectFetch(app: App): Fetcher {
  return async (path, init = {}) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const body = init.body === undefined || init.body === null ? undefined : typeof init.body === 'string' ? init.body : Buffer.from(await new Response(init.body).arrayBuffer());
    const reply = await app.fastify.inject({ method: (init.method ?? 'GET') as 'GET', url: path, headers, ...(body === undefined ? {} : { payload: body }) });
    const out = new Headers();
    for (const [name, value] of Object.entries(reply.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(name, String(v));
    }
    const empty = reply.statusCode === 204 || reply.statusCode === 304 || init.method === 'HEAD';
    return new Response(empty ? null : reply.rawPayload, { status: reply.statusCode, headers: out });
  };
}

export async function startTestServer(db: Db, options: TestServerOptions): Promise<TestServer> {
  const clock = options.clock ?? new ManualClock();
  const logs: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void logs.push(line) } });
  const mailer = options.mailer ?? createMailer({ outboxDir: options.outboxDir, from: 'test <test@localhost>' });
  const { outboxDir: _o, mailer: _m, clock: _c, socket = true, ...rest } = options;
  const app = await buildApp({ keySecret: TEST_KEY_SECRET, ...rest, db, logger, clock, mailer });
  let url = 'http://127.0.0.1:1';
  let fetcher: Fetcher;
  if (socket) {
    await app.fastify.listen({ host: '127.0.0.1', port: 0 });
    const address = app.fastify.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
    const origin = (url = `http://127.0.0.1:${address.port}`);
    fetcher = (path, init) => fetch(`${origin}${path}`, init);
  } else {
    await app.fastify.ready();
    fetcher = injectFetch(app);
  }
  const send = async (path: string, init: RequestInit): Promise<Reply> => {
    const response = await fetcher(path, init);
    const text = await response.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // leave empty: the assertion on status or text will tell
    }
    return { status: response.status, body, headers: response.headers, text };
  };
  return {
    url,
    fetch: fetcher,
    app,
    clock,
    logs,
    outboxDir: options.outboxDir,
    post: (path, body) =>
      send(`/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    postRaw: (path, body, contentType = 'application/json') =>
      send(`/v1${path}`, { method: 'POST', headers: { 'content-type': contentType }, body }),
    get: (path) => send(path, { method: 'GET' }),
    close: async () => {
      await app.fastify.close();
      await app.drain();
      mailer.close();
    },
  };
}

let counter = 0;
/** A unique username per call, so tests in one suite never share accounts or throttle counters. */
export function uniqueName(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${counter}x${process.pid}`;
}

export const PASSWORD = 'correct horse battery staple';

export async function addUser(
  db: Db,
  clock: Clock,
  options: { username?: string; password?: string; temporary?: boolean; email?: string } = {},
): Promise<{ username: string; password: string; email: string }> {
  const username = options.username ?? uniqueName();
  const password = options.password ?? PASSWORD;
  const email = options.email ?? `${username}@example.test`;
  await createAccount(db, clock, { username, email, password, temporary: options.temporary ?? false });
  return { username, password, email };
}

/** The confirmation code in the newest .eml in the outbox addressed to `email`. */
export function codeFromOutbox(outboxDir: string, email: string): string {
  const files = readdirSync(outboxDir).filter((f) => f.endsWith('.eml')).sort();
  for (const file of files.reverse()) {
    const mail = readFileSync(join(outboxDir, file), 'utf8');
    if (!mail.includes(`To: ${email}`)) continue;
    const match = /Confirmation code: (\d+)/.exec(mail);
    if (match?.[1] !== undefined) return match[1];
  }
  throw new Error(`no mail to ${email} in ${outboxDir}`);
}

/** Polls until `check` stops throwing: for mails sent in the background. */
export async function eventually<T>(check: () => T, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
