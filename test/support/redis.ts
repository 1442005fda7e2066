/**
 * The local Redis that the Redis-backed suites run on (the scale-out stores, the distributed
 * conversion): $TEST_REDIS_URL or the default port. Whether it answers is asked once and the
 * answer kept; under CI its absence fails the suite instead of skipping it, as for PostgreSQL in
 * the service tests. How a suite skips (and what it prints) stays with the suite.
 */
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

let testRedis: Promise<string | undefined> | undefined;

/** Why the test Redis cannot be used, or undefined when it answers. Rejects under CI instead. */
export function testRedisUnreachable(): Promise<string | undefined> {
  testRedis ??= whyUnreachable(TEST_REDIS_URL).then((why) => {
    if (why !== undefined && process.env['CI'] !== undefined) {
      throw new Error(`Redis at ${TEST_REDIS_URL} is required under CI and unreachable: ${why}`);
    }
    return why;
  });
  return testRedis;
}

/** Why the Redis at `url` does not answer a PING, or undefined when it does. Asked anew each call. */
export async function whyUnreachable(url: string): Promise<string | undefined> {
  // A bounded connect: an address that swallows packets would otherwise hold the suite for 10 s.
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
  client.on('error', () => undefined); // the failure is returned, not printed
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    client.disconnect();
  }
}
