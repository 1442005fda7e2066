/**
 * Replies to requests that never reach fastify's routing: Node's HTTP parser refuses them
 * (malformed syntax, headers too large, a timeout, an unknown method) and emits `clientError`, or
 * the method is CONNECT (emitted as `connect`). Node's own answer to these is a bare status line
 * with no body, and fastify's a `{error, message, statusCode}` object; ours is the service's
 * `{message, status}` like every other reply, written straight to the socket, which is then closed
 * (the parser's state is unknown after an error, so the connection cannot be reused).
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';

/** The error Node hands to `clientError`: llhttp's codes (HPE_*) or Node's (ERR_HTTP_*, ECONNRESET). */
export interface ClientError extends Error {
  code?: string | undefined;
  /** The bytes being parsed when the error happened. */
  rawPacket?: unknown;
}

/** Writes a complete JSON reply on a raw socket and closes it, unless a reply has begun on it. */
export function writeRawReply(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  // Bytes of a reply already sent: another status line would corrupt the stream for the client.
  if (!socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ message, status });
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

/** The status and message for a parser or timeout error; undefined when there is no one to answer. */
export function replyForClientError(error: ClientError, maxHeaderBytes: number): { status: number; message: string } | undefined {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined; // the client is gone
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'the request was not received in time; the connection is closed' };
    case 'HPE_HEADER_OVERFLOW':
      // Node counts the request line toward the header limit: when the request line is most of
      // it, the URL is what is too long.
      return longRequestLine(error.rawPacket, maxHeaderBytes / 2)
        ? { status: 414, message: URL_TOO_LONG(maxHeaderBytes) }
        : { status: 431, message: HEADERS_TOO_LARGE(maxHeaderBytes) };
    case 'HPE_INVALID_METHOD':
      if (isTlsHandshake(error.rawPacket)) return { status: 400, message: 'this port speaks plain HTTP, not TLS: use http://, not https://' };
      return { status: 501, message: 'the request method is not implemented' };
    case 'HPE_INVALID_URL':
      return { status: 400, message: 'malformed HTTP request: invalid request target (URL)' };
    case 'HPE_INVALID_VERSION':
      return { status: 505, message: VERSION_NOT_SUPPORTED };
    default:
      return { status: 400, message: `malformed HTTP request${error.code?.startsWith('HPE_') ? ` (${error.code})` : ''}` };
  }
}

const HEADERS_TOO_LARGE = (maxHeaderBytes: number) => `the request headers are too large: at most ${maxHeaderBytes} bytes with the request line`;
const URL_TOO_LONG = (maxHeaderBytes: number) => `the URL is too long: the request line and headers must fit in ${maxHeaderBytes} bytes`;
export const VERSION_NOT_SUPPORTED = 'HTTP version not supported: only HTTP/1.0 and HTTP/1.1';

/**
 * What Node's parser lets through but the service refuses, checked first thing for every request
 * (before routing, the token and the body): another HTTP version than 1.0 or 1.1 (llhttp accepts
 * `HTTP/2.0` and a bare request line, HTTP/0.9), and a head over the size limit. Node counts only
 * the URL, the names and the values toward `maxHeaderSize`, so thousands of short fields (6,000 ×
 * `a:b`, 30 KB) passed; here the head is counted as sent, `NAME: value` and CRLF per field (the
 * server keeps every field for this: `maxHeadersCount` 0). Whitespace around a value is not
 * counted: Node skips it without storing it.
 */
export function refuseRequestHead(raw: IncomingMessage, maxHeaderBytes: number): { status: number; message: string } | undefined {
  if (raw.httpVersionMajor !== 1) return { status: 505, message: VERSION_NOT_SUPPORTED };
  const requestLine = (raw.method?.length ?? 0) + (raw.url?.length ?? 0) + 12; // 2 spaces, HTTP/1.1, CRLF
  let bytes = requestLine;
  const fields = raw.rawHeaders;
  for (let i = 0; i < fields.length; i += 2) bytes += (fields[i]?.length ?? 0) + (fields[i + 1]?.length ?? 0) + 4;
  if (bytes <= maxHeaderBytes) return undefined;
  return requestLine > maxHeaderBytes / 2 ? { status: 414, message: URL_TOO_LONG(maxHeaderBytes) } : { status: 431, message: HEADERS_TOO_LARGE(maxHeaderBytes) };
}

/** The packet starts a request whose line is longer than `bytes` (or does not end in the packet). */
function longRequestLine(packet: unknown, bytes: number): boolean {
  if (!Buffer.isBuffer(packet) || !/^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1'))) return false;
  const end = packet.indexOf('\n');
  return end < 0 || end > bytes;
}

/** A TLS record of type handshake (0x16), version 3.x: an https:// client on this plain port. */
function isTlsHandshake(packet: unknown): boolean {
  return Buffer.isBuffer(packet) && packet[0] === 0x16 && packet[1] === 0x03;
}

/** fastify's `clientErrorHandler`. */
export function clientErrorHandler(logger: FastifyBaseLogger, maxHeaderBytes: number) {
  return (error: ClientError, socket: Duplex): void => {
    const reply = replyForClientError(error, maxHeaderBytes);
    if (reply === undefined) {
      socket.destroy();
      return;
    }
    logger.info({ code: error.code, status: reply.status }, 'client error answered before routing');
    writeRawReply(socket, reply.status, reply.message);
  };
}

/**
 * The server's `checkExpectation` listener: an `Expect` other than 100-continue, which Node would
 * refuse with a bare 417.
 */
export function refuseExpectation(_request: IncomingMessage, response: ServerResponse): void {
  const body = JSON.stringify({ message: 'Expect: only "100-continue" is supported', status: 417 });
  response.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
  response.end(body);
}

/** The server's `connect` listener: this is not a proxy. Without one Node drops the connection unanswered. */
export function refuseConnect(_request: IncomingMessage, socket: Duplex): void {
  writeRawReply(socket, 501, 'CONNECT is not supported: this server is not a proxy');
}
