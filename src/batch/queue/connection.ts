/**
 * The Redis behind a distributed run: `--queue redis://HOST:PORT[/DB]` parsed and checked once
 * (redis-target.ts, re-exported here), and the ioredis connections BullMQ needs (`maxRetriesPerRequest: null`: a blocking worker
 * connection must wait for Redis to come back, not fail its commands after 20 retries).
 */
import { Redis } from 'ioredis';
import type { RedisTarget } from './redis-target.js';

export { DEFAULT_QUEUE_NAME, parseRedisUrl, queueNameOf } from './redis-target.js';
export type { RedisTarget } from './redis-target.js';

export function connect(target: RedisTarget): Redis {
  return new Redis({
    host: target.host,
    port: target.port,
    db: target.db,
    maxRetriesPerRequest: null,
    // Reconnect for as long as it takes (capped back-off): a Redis restart is waited out.
    retryStrategy: (times) => Math.min(200 * times, 2000),
  });
}
