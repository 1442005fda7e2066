/**
 * Shared pieces of the Enterprise endpoint tests: one request (over the socket or through
 * `app.inject()`), with the
 * body as bytes, text and JSON; and a snapshot `.tar.gz` unpacked into its NDJSON entries.
 */
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import type { Fetcher } from '../helpers/harness.js';

export interface Answer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  json: unknown;
}

export interface CallInit {
  method?: string;
  token?: string;
  /** Sent as JSON. */
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** One request to `target`: an origin (over the socket) or a server's fetch (its socket or `app.inject()`). */
export async function call(target: string | Fetcher, path: string, init: CallInit = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== undefined) headers['authorization'] = `Bearer ${init.token}`;
  let body = init.rawBody;
  if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const send: Fetcher = typeof target === 'string' ? (p, i) => fetch(`${target}${p}`, i) : target;
  const response = await send(path, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, ...(body === undefined ? {} : { body }) });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, bytes, text, json };
}

/** The entries of a .tar.gz, by name, as text. */
export async function untar(bytes: Buffer): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const parts: Buffer[] = [];
      stream.on('data', (c: unknown) => parts.push(c as Buffer));
      stream.on('end', () => {
        entries.set(header.name, Buffer.concat(parts).toString('utf8'));
        next();
      });
      stream.on('error', reject);
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  Readable.from([bytes]).pipe(createGunzip()).pipe(extract);
  await done;
  return entries;
}

/** The lines of every entry, in entry order. */
export function ndjsonLines(entries: Map<string, string>): string[] {
  return [...entries.values()].flatMap((text) => text.split('\n').filter((l) => l !== ''));
}
