/**
 * The shared-state stores the scale-out suites run on: the database (PGlite, and the PostgreSQL
 * server through LISTEN/NOTIFY) and the local Redis. Each suite gets its own namespace (Redis
 * key prefix, NOTIFY channel), removed afterwards, so parallel files and reruns never meet.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { BACKENDS, type Backend } from '../helpers/backends.js';

export const TEST_REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

async function reachable(url: string): Promise<string | undefined> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    redis.disconnect();
  }
}

const unreachable = await reachable(TEST_REDIS_URL);
if (unreachable !== undefined && process.env['CI'] !== undefined) {
  throw new Error(`Redis at ${TEST_REDIS_URL} is required under CI and unreachable: ${unreachable}`);
}
export const redisSkip = unreachable;

export interface StoreCase {
  name: string;
  backend: Backend;
  store: 'database' | 'redis';
  skip: string | undefined;
}

/** Every database × every shared store: the limiter and bus come from `store`, the rows from `backend`. */
export const STORES: StoreCase[] = BACKENDS.flatMap((backend) => [
  { name: `${backend.name} + database`, backend, store: 'database' as const, skip: backend.skip },
  { name: `${backend.name} + redis`, backend, store: 'redis' as const, skip: backend.skip ?? redisSkip },
]);

export function uniqueNamespace(): string {
  return `wikistruct-test-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Deletes every Redis key of a namespace. */
export async function dropRedisNamespace(namespace: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `${namespace}:*`, count: 500 }) as AsyncIterable<string[]>) keys.push(...batch);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}
