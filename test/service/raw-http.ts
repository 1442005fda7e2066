/**
 * Raw HTTP/1.1 over a real socket: for requests no HTTP client would send (malformed syntax,
 * oversized lines, odd methods) and for watching what the server does with the connection.
 */
import { connect, type Socket } from 'node:net';

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection after the reply. */
  closed: boolean;
}

/** Parses the first reply in `data`, if complete (Content-Length bodies only, as the service sends). */
export function parseReply(data: Buffer, method = 'GET'): Omit<RawReply, 'closed'> | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = method === 'HEAD' || status === 304 || status === 204 ? 0 : Number(headers['content-length'] ?? 0);
  if (data.length < end + 4 + length) return undefined;
  return { status, headers, body: data.subarray(end + 4, end + 4 + length).toString('utf8') };
}

/** Opens a connection to `url`'s host and port. */
export function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Sends `request` (bytes as given) on a fresh connection and resolves with the first reply: at
 * once, or with `untilClose` only when the server has closed the connection (which then must
 * happen: no timer decides it).
 */
export async function rawRequest(url: string, request: string | Buffer, options: { method?: string; untilClose?: boolean } = {}): Promise<RawReply> {
  const socket = await open(url);
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    let reply: Omit<RawReply, 'closed'> | undefined;
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      reply ??= parseReply(data, options.method);
      if (reply !== undefined && options.untilClose !== true) {
        socket.destroy();
        resolve({ ...reply, closed: false });
      }
    });
    socket.on('close', () => {
      if (reply === undefined) reject(new Error(`connection closed without a complete reply; received ${JSON.stringify(data.toString('latin1').slice(0, 300))}`));
      else resolve({ ...reply, closed: true });
    });
    socket.on('error', () => {}); // a reset after the reply is still a close
    socket.write(request);
  });
}
