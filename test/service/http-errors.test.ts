/**
 * Every reply of the service is a `{message, status}` object with the right status, whatever the
 * failure, including requests Node's parser or fastify's router refuse before any route runs:
 * crafted raw requests over a real socket. And the timeouts: a client that drips its headers or
 * body, or says nothing, gets a 408 and loses the connection; an idle keep-alive connection is
 * closed. No assertion depends on timing: each waits (under a generous test timeout) for the
 * server to act. The replies do not depend on the storage backend: PGlite only.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { httpTimeoutsFromEnv } from '../../src/service/content/env.js';
import { resolveTimeouts } from '../../src/service/timeouts.js';
import { BACKENDS, type TestDatabase } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/harness.js';
import { open, parseReply, rawRequest, type RawReply } from './raw-http.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const CRLF = '\r\n';
const request = (head: string, ...headers: string[]) => [head, 'Host: test', ...headers, '', ''].join(CRLF);
const withBody = (head: string, body: string, ...headers: string[]) => request(head, ...headers, `Content-Length: ${Buffer.byteLength(body)}`) + body;

/** `GET /healthz` whose request line and header fields (`Name: value` CRLF each) come to `bytes`, the blank line aside. */
function exactHead(bytes: number): string {
  const fixed = ['GET /healthz HTTP/1.1', 'Host: test'];
  let left = bytes - fixed.reduce((n, line) => n + line.length + 2, 0);
  const fields: string[] = [];
  for (let i = 0; left > 0; i++) {
    const value = 'v'.repeat(Math.min(200, left - `X-F${i}: `.length - 2));
    fields.push(`X-F${i}: ${value}`);
    left -= `X-F${i}: ${value}`.length + 2;
  }
  if (left !== 0) throw new Error(`exactHead(${bytes}) is off by ${left}`);
  return [...fixed, ...fields, '', ''].join(CRLF);
}

interface Case {
  name: string;
  send: string | Buffer;
  status: number;
  /** The message, or a pattern of it. */
  message: string | RegExp;
  allow?: string;
  method?: string;
}

const CASES: Case[] = [
  // Refused by Node's HTTP parser (clientError): answered on the raw socket.
  { name: 'URL longer than the header limit', send: request(`GET /healthz?${'a'.repeat(20_000)} HTTP/1.1`), status: 414, message: 'the URL is too long: the request line and headers must fit in 16384 bytes' },
  { name: 'one huge header', send: request('GET /healthz HTTP/1.1', `X-Big: ${'a'.repeat(20_000)}`), status: 431, message: 'the request headers are too large: at most 16384 bytes with the request line' },
  { name: 'many headers', send: request('GET /healthz HTTP/1.1', ...Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'v'.repeat(40)}`)), status: 431, message: /^the request headers are too large/ },
  { name: 'a method Node does not know', send: request('BREW /healthz HTTP/1.1'), status: 501, message: 'the request method is not implemented' },
  { name: 'TLS on the plain port', send: Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]), status: 400, message: 'this port speaks plain HTTP, not TLS: use http://, not https://' },
  { name: 'HTTP/9.9', send: request('GET /healthz HTTP/9.9'), status: 505, message: 'HTTP version not supported: only HTTP/1.0 and HTTP/1.1' },
  // Issue 22: Node's parser accepts these; the service answers them with the documented 505 and 431.
  { name: 'HTTP/2.0 in the request line', send: request('GET /healthz HTTP/2.0'), status: 505, message: 'HTTP version not supported: only HTTP/1.0 and HTTP/1.1' },
  { name: 'HTTP/0.9 named in the request line', send: request('GET /healthz HTTP/0.9'), status: 505, message: 'HTTP version not supported: only HTTP/1.0 and HTTP/1.1' },
  { name: 'an HTTP/0.9 bare request line', send: `GET /healthz${CRLF}${CRLF}`, status: 505, message: 'HTTP version not supported: only HTTP/1.0 and HTTP/1.1' },
  { name: 'HTTP/2.0 on a route with a token check', send: request('POST /v2/structured-contents/X HTTP/2.0'), status: 505, message: 'HTTP version not supported: only HTTP/1.0 and HTTP/1.1' },
  { name: '30 KB of short repeated header fields', send: request('GET /healthz HTTP/1.1', ...Array.from({ length: 6000 }, () => 'a:b')), status: 431, message: 'the request headers are too large: at most 16384 bytes with the request line' },
  { name: '19 KB of short distinct header fields', send: request('GET /healthz HTTP/1.1', ...Array.from({ length: 2000 }, (_, i) => `x${i}:y`)), status: 431, message: /^the request headers are too large/ },
  { name: 'a head of exactly 16384 bytes passes', send: exactHead(16_384), status: 200, message: '' },
  { name: 'a head of 16385 bytes does not', send: exactHead(16_385), status: 431, message: /^the request headers are too large/ },
  { name: 'a header line without a colon', send: request('GET /healthz HTTP/1.1', 'NoColonHere'), status: 400, message: 'malformed HTTP request (HPE_INVALID_HEADER_TOKEN)' },
  { name: 'a control character in a header', send: request('GET /healthz HTTP/1.1', 'X-A: a\u0001b'), status: 400, message: /^malformed HTTP request/ },
  { name: 'a space in the URL', send: request('GET /heal thz HTTP/1.1'), status: 400, message: /^malformed HTTP request/ },
  { name: 'NUL in the URL', send: request('GET /v2/structured-contents/a\u0000b HTTP/1.1'), status: 400, message: 'malformed HTTP request: invalid request target (URL)' },
  { name: 'Content-Length and Transfer-Encoding', send: request('POST /v1/login HTTP/1.1', 'Content-Length: 3', 'Transfer-Encoding: chunked') + '0\r\n\r\n', status: 400, message: /^malformed HTTP request/ },
  { name: 'two different Content-Lengths', send: request('POST /v1/login HTTP/1.1', 'Content-Length: 3', 'Content-Length: 4') + 'abcd', status: 400, message: /^malformed HTTP request/ },
  { name: 'a bad chunk size', send: request('POST /v1/login HTTP/1.1', 'Content-Type: application/json', 'Transfer-Encoding: chunked') + 'ZZ\r\nabc\r\n0\r\n\r\n', status: 400, message: /^malformed HTTP request/ },
  { name: 'Transfer-Encoding gzip', send: request('POST /v1/login HTTP/1.1', 'Transfer-Encoding: gzip'), status: 400, message: /^malformed HTTP request/ },
  // Node's own replies, otherwise bare: CONNECT, Expect, a missing Host.
  { name: 'CONNECT', send: request('CONNECT example.com:443 HTTP/1.1'), status: 501, message: 'CONNECT is not supported: this server is not a proxy' },
  { name: 'an Expect other than 100-continue', send: withBody('POST /v1/login HTTP/1.1', '{}', 'Expect: tea'), status: 417, message: 'Expect: only "100-continue" is supported' },
  { name: 'HTTP/1.1 without Host', send: ['GET /healthz HTTP/1.1', '', ''].join(CRLF), status: 400, message: 'the Host header is required in HTTP/1.1' },
  // Refused by fastify's router.
  { name: 'a bad %-escape in the title', send: request('GET /v2/structured-contents/Foo%ZZ HTTP/1.1'), status: 400, message: 'malformed URL: a %-escape in the path is not valid (a "%" must start "%XX" encoding UTF-8)' },
  { name: 'a %-escape that is not UTF-8', send: request('POST /v2/structured-contents/Caf%E9 HTTP/1.1'), status: 400, message: /^malformed URL/ },
  { name: 'a title longer than any title in a URL', send: request(`GET /v2/structured-contents/${'a'.repeat(1100)} HTTP/1.1`), status: 414, message: 'the title in the URL is longer than 1024 characters (MediaWiki titles are at most 255 bytes of UTF-8)' },
  // Unknown paths and methods: before the body is read.
  { name: 'PUT with a broken JSON body where GET and POST exist', send: withBody('PUT /v2/structured-contents/X HTTP/1.1', '{{{', 'Content-Type: application/json'), status: 405, message: 'method PUT is not allowed on /v2/structured-contents/X; allowed: GET, HEAD, POST', allow: 'GET, HEAD, POST' },
  { name: 'DELETE on the content route', send: request('DELETE /v2/structured-contents/X HTTP/1.1'), status: 405, message: /^method DELETE is not allowed/, allow: 'GET, HEAD, POST' },
  { name: 'OPTIONS on the content route', send: request('OPTIONS /v2/structured-contents/X HTTP/1.1'), status: 405, message: /^method OPTIONS is not allowed/, allow: 'GET, HEAD, POST' },
  { name: 'GET on a POST-only route', send: request('GET /v1/login HTTP/1.1'), status: 405, message: 'method GET is not allowed on /v1/login; allowed: POST', allow: 'POST' },
  { name: 'HEAD on a POST-only route', send: request('HEAD /v1/login HTTP/1.1'), status: 405, message: '', allow: 'POST', method: 'HEAD' },
  { name: 'a WebDAV method on a known route', send: request('PROPFIND /v1/login HTTP/1.1'), status: 405, message: /^method PROPFIND is not allowed/, allow: 'POST' },
  { name: 'POST on GET-only /healthz with a broken body', send: withBody('POST /healthz HTTP/1.1', '{{{', 'Content-Type: application/json'), status: 405, message: /^method POST is not allowed on \/healthz/, allow: 'GET, HEAD' },
  { name: 'an unknown path with a broken body', send: withBody('PATCH /nowhere HTTP/1.1', '{{{', 'Content-Type: application/json'), status: 404, message: 'no route for PATCH /nowhere' },
  { name: 'no title segment', send: request('GET /v2/structured-contents HTTP/1.1'), status: 404, message: 'no route for GET /v2/structured-contents' },
  { name: 'OPTIONS *', send: request('OPTIONS * HTTP/1.1'), status: 404, message: 'no route for OPTIONS *' },
  // fastify's body parsing and the routes' own checks.
  { name: 'a body over the limit', send: withBody('POST /v1/login HTTP/1.1', 'a'.repeat(20_000), 'Content-Type: application/json'), status: 413, message: 'request body is larger than 16384 bytes' },
  { name: 'no token on GET of the content route', send: request('GET /v2/structured-contents/X HTTP/1.1'), status: 401, message: 'an access token is required: Authorization: Bearer <access_token>' },
  { name: 'a bad token on the content route', send: request('POST /v2/structured-contents/X HTTP/1.1', 'Authorization: Bearer nope'), status: 401, message: /access token/ },
  // What works stays working.
  { name: 'HEAD where GET exists', send: request('HEAD /healthz HTTP/1.1'), status: 200, message: '', method: 'HEAD' },
  { name: 'absolute-form request target', send: request('GET http://test/healthz HTTP/1.1'), status: 200, message: '' },
  { name: 'an Upgrade header is ignored', send: request('GET /healthz HTTP/1.1', 'Connection: Upgrade', 'Upgrade: websocket'), status: 200, message: '' },
];

describe('every failure is a {message, status} reply', () => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await BACKENDS[0]!.open();
    server = await startTestServer(database.db, { outboxDir: join(database.dir, 'outbox'), offline: true, content: { parseThreads: 1 } });
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  test.each(CASES)('$name → $status', async (c) => {
    const reply = await rawRequest(server.url, c.send, c.method === undefined ? {} : { method: c.method });
    expect(reply.status, 'status').toBe(c.status);
    if (c.allow !== undefined) expect(reply.headers['allow'], 'Allow').toBe(c.allow);
    if (c.status === 200 || c.method === 'HEAD') return;
    expect(reply.headers['content-type'], 'JSON').toMatch(/^application\/json/);
    const body = JSON.parse(reply.body) as unknown;
    expect(Object.keys(body as object).sort(), 'exactly {message, status}').toEqual(['message', 'status']);
    expect((body as { status: number }).status, 'status in the body').toBe(c.status);
    const message = (body as { message: string }).message;
    if (typeof c.message === 'string') expect(message, 'message').toBe(c.message);
    else expect(message, 'message').toMatch(c.message);
  });

  test('a reply written on the raw socket closes the connection; a 405 keeps it open for the next request', async () => {
    const refused = await rawRequest(server.url, request('BREW /healthz HTTP/1.1'), { untilClose: true });
    expect([refused.status, refused.closed, refused.headers['connection']], 'closed after the reply').toEqual([501, true, 'close']);
    const socket = await open(server.url);
    try {
      const replies: RawReply[] = [];
      let data = Buffer.alloc(0);
      const next = () =>
        new Promise<void>((resolve) => {
          const onData = (chunk: Buffer) => {
            data = Buffer.concat([data, chunk]);
            const reply = parseReply(data);
            if (reply === undefined) return;
            replies.push({ ...reply, closed: false });
            data = Buffer.alloc(0);
            socket.off('data', onData);
            resolve();
          };
          socket.on('data', onData);
        });
      socket.write(request('DELETE /v1/login HTTP/1.1'));
      await next();
      socket.write(request('GET /healthz HTTP/1.1'));
      await next();
      expect(replies.map((r) => r.status), 'both answered on one connection').toEqual([405, 200]);
    } finally {
      socket.destroy();
    }
  });
});

describe('timeouts', () => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await BACKENDS[0]!.open();
    server = await startTestServer(database.db, {
      outboxDir: join(database.dir, 'outbox'),
      offline: true,
      content: { parseThreads: 1 },
      timeouts: { headersMs: 300, requestMs: 600, keepAliveMs: 300, idleMs: 30_000, checkIntervalMs: 50 },
    });
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  /** Sends `first`, then `drip` every 100 ms while the connection lives; resolves with what came back once the server closes it. */
  const dripUntilClosed = async (first: string, drip?: string): Promise<{ reply: ReturnType<typeof parseReply>; dripped: number }> => {
    const socket = await open(server.url);
    let data = Buffer.alloc(0);
    let dripped = 0;
    socket.on('data', (chunk: Buffer) => (data = Buffer.concat([data, chunk])));
    socket.on('error', () => {});
    socket.write(first);
    const timer =
      drip === undefined
        ? undefined
        : setInterval(() => {
            if (socket.writable) {
              socket.write(drip);
              dripped++;
            }
          }, 100);
    await new Promise((resolve) => socket.once('close', resolve));
    clearInterval(timer);
    return { reply: parseReply(data), dripped };
  };

  const timedOut = { status: 408, message: 'the request was not received in time; the connection is closed' };

  test('a body dripped a byte at a time is cut off with a 408', async () => {
    const { reply, dripped } = await dripUntilClosed(request('POST /v1/login HTTP/1.1', 'Content-Type: application/json', 'Content-Length: 10000') + '{', ' ');
    expect(JSON.parse(reply?.body ?? '{}'), 'a 408 Message, then closed').toEqual(timedOut);
    expect(reply?.status, 'status line').toBe(408);
    expect(dripped, 'the client was still sending').toBeGreaterThan(0);
  });

  test('headers dripped a byte at a time are cut off with a 408', async () => {
    const { reply } = await dripUntilClosed('GET /healthz HTTP/1.1\r\nHost: test\r\nX-Slow: ', 'a');
    expect(JSON.parse(reply?.body ?? '{}'), 'a 408 Message, then closed').toEqual(timedOut);
  });

  test('a connection that sends nothing is closed with a 408', async () => {
    const { reply } = await dripUntilClosed('');
    expect(JSON.parse(reply?.body ?? '{}'), 'a 408 Message, then closed').toEqual(timedOut);
  });

  test('an idle keep-alive connection is closed after its reply', async () => {
    const { reply } = await dripUntilClosed(request('GET /healthz HTTP/1.1'));
    expect([reply?.status, reply?.headers['connection']], 'the reply offered keep-alive, and then the server closed').toEqual([200, 'keep-alive']);
  });

  test('settings: defaults, the environment, and refusals that name the field', () => {
    expect(resolveTimeouts(), 'defaults').toEqual({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 72_000, idleMs: 120_000, checkIntervalMs: 1_000 });
    expect(() => resolveTimeouts({ headersMs: 5000, requestMs: 1000 }), 'headers within the request').toThrow('HTTP timeouts: headersMs: headersMs must not exceed requestMs (Node refuses it)');
    expect(() => resolveTimeouts({ idleMs: 0 }), 'positive').toThrow('HTTP timeouts: idleMs: idleMs must be positive');
    expect(httpTimeoutsFromEnv({ WIKISTRUCT_REQUEST_TIMEOUT_MS: '45000', WIKISTRUCT_HEADERS_TIMEOUT_MS: '' }), 'from the environment; empty is unset').toEqual({ requestMs: 45_000 });
    expect(() => httpTimeoutsFromEnv({ WIKISTRUCT_IDLE_TIMEOUT_MS: 'soon' }), 'names the variable').toThrow(/^WIKISTRUCT_IDLE_TIMEOUT_MS: /);
  });
});
