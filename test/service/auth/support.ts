/**
 * Shared by the auth hardening tests: a Db that records (and can hold back) every statement, a
 * mailer that counts, and the argon2 call counter the tests install with vi.mock.
 */
import { request } from 'node:http';
import type { Mail, Mailer } from '../../../src/service/mailer.js';
import type { Db, Queryable } from '../../../src/service/storage/db.js';

/** The statement without its layout, so that two recordings compare by what they ask. */
export const normalizeSql = (sql: string): string => sql.replace(/\s+/g, ' ').trim();

export interface RecordingDb extends Db {
  /** Every statement run so far, in order, normalized. */
  readonly statements: string[];
  /**
   * While set, statements for which it returns true wait until `release()`: proves a reply does
   * not depend on them.
   */
  holdBack: ((sql: string) => boolean) | undefined;
  release(): void;
}

/** Wraps `db`: records each statement (inside transactions too) before running it. */
export function recordingDb(db: Db): RecordingDb {
  const statements: string[] = [];
  let waiting: Array<() => void> = [];
  const recorder: RecordingDb = {
    kind: db.kind,
    statements,
    holdBack: undefined,
    release() {
      recorder.holdBack = undefined;
      for (const go of waiting) go();
      waiting = [];
    },
    query: <T>(sql: string, params?: readonly unknown[]) => run<T>(db, sql, params),
    transaction: (fn) => db.transaction((tx) => fn({ query: (sql, params) => run(tx, sql, params) })),
    close: () => db.close(),
  };
  async function run<T>(q: Queryable, sql: string, params?: readonly unknown[]): Promise<T[]> {
    const text = normalizeSql(sql);
    if (recorder.holdBack?.(text) === true) await new Promise<void>((go) => waiting.push(go));
    statements.push(text);
    return q.query<T>(sql, params);
  }
  return recorder;
}

export interface CountingMailer extends Mailer {
  readonly sent: Mail[];
}

export function countingMailer(): CountingMailer {
  const sent: Mail[] = [];
  return {
    sent,
    send: async (mail) => {
      sent.push(mail);
      return `memory:${sent.length}`;
    },
    close: () => {},
  };
}

/** What the tests count: argon2 hashes computed and verifications made, by the real functions. */
export interface Argon2Calls {
  hash: number;
  verify: number;
}

type Passwords = typeof import('../../../src/service/auth/passwords.js');

/**
 * The real passwords module with its argon2 calls counted in `calls`: what the tests' vi.mock
 * factory returns (the factory itself must stay in each test file, where vitest hoists it).
 */
export function countingPasswords(real: Passwords, calls: Argon2Calls): Passwords {
  return {
    ...real,
    hashSecret: (secret: string) => {
      calls.hash += 1;
      return real.hashSecret(secret);
    },
    verifySecret: (stored: string | undefined, secret: string) => {
      calls.verify += 1;
      return real.verifySecret(stored, secret);
    },
  };
}

/**
 * POST /v1<path> with a JSON body from a client at `localAddress`: the socket is bound to it
 * before connecting (loopback answers for all of 127.0.0.0/8), so the server sees that address.
 */
export function postFrom(
  url: string,
  localAddress: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const target = new URL(`/v1${path}`, url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', localAddress, agent: false, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
