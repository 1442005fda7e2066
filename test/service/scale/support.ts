/**
 * The shared-state stores the scale-out suites run on: the database (PGlite, and the PostgreSQL
 * server through LISTEN/NOTIFY) and the local Redis. Each suite gets its own namespace (Redis
 * key prefix, NOTIFY channel), removed afterwards, so parallel files and reruns never meet.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { testRedisUnreachable, TEST_REDIS_URL } from '../../support/redis.js';
import { BACKENDS, type Backend } from '../helpers/backends.js';

export { TEST_REDIS_URL };

/** Why the Redis store cases are skipped (undefined: they run); under CI an unreachable Redis fails instead. */
export const redisSkip = await testRedisUnreachable();

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
