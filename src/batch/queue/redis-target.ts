/**
 * `--queue redis://HOST:PORT[/DB]` and `--queue-name`, parsed and checked: what the flags of
 * `convert` need, without ioredis (connection.ts), which every `convert` would otherwise load
 * into its main thread whether it uses a queue or not (+20 MB resident, issue 26).
 */
import { UsageError } from '../options.js';

export interface RedisTarget {
  host: string;
  port: number;
  db: number;
  /** The URL as given, for messages. */
  url: string;
}

/** The default queue; `--queue-name` separates independent fleets (and tests) on one Redis. */
export const DEFAULT_QUEUE_NAME = 'wikistruct-convert';

export function parseRedisUrl(text: string): RedisTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--queue takes redis://HOST:PORT[/DB]; got "${text}"`);
  }
  if (url.protocol !== 'redis:') throw new UsageError(`--queue takes redis://HOST:PORT[/DB]; got the scheme "${url.protocol}" in "${text}"`);
  if (url.hostname === '') throw new UsageError(`--queue ${text}: no host`);
  const port = url.port === '' ? 6379 : Number(url.port);
  const path = url.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d{1,2}$/.test(path)) throw new UsageError(`--queue ${text}: the database must be a number (redis://HOST:PORT/DB); got "${path}"`);
  if (url.search !== '' || url.hash !== '') throw new UsageError(`--queue ${text}: no query or fragment expected`);
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port, db: path === '' ? 0 : Number(path), url: text };
}

export function queueNameOf(text: string): string {
  // BullMQ builds keys as `bull:<name>:...`; a colon in the name would blur them.
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(text)) throw new UsageError(`--queue-name takes letters, digits, "_", "." and "-" (at most 100); got "${text}"`);
  return text;
}
