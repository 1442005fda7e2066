/**
 * What the processes of one deployment share beyond the database rows: the limiter store (auth
 * throttles and the /v2 and /v2/parse request limits) and the bus that pushes "drop what you cached" messages.
 * Chosen by configuration, one implementation per store:
 *
 * | configuration        | limiter                  | request limit     | bus                    |
 * | -------------------- | ------------------------ | ----------------- | ---------------------- |
 * | embedded (default)   | SQL on PGlite            | memory (1 process)| in process             |
 * | DATABASE_URL         | SQL on the server        | SQL on the server | LISTEN/NOTIFY          |
 * | REDIS_URL (+ either) | Redis script             | Redis script      | Redis pub/sub          |
 */
import type { Limiter } from './auth/limiter.js';
import { RedisLimiter } from './auth/redis-limiter.js';
import { SqlLimiter } from './auth/sql-limiter.js';
import type { Clock } from './clock.js';
import { LocalHub, type Bus } from './pubsub.js';
import { openRedisBus } from './pubsub-redis.js';
import type { Db } from './storage/db.js';

export interface SharedState {
  /** Auth throttles; also the /v2 and /v2/parse request limits when `requestLimitShared`. */
  limiter: Limiter;
  /** False: the request limit is an in-memory bucket (one process serves every client). */
  requestLimitShared: boolean;
  bus: Bus;
  close(): Promise<void>;
}

export interface SharedStateOptions {
  db: Db;
  clock: Clock;
  /** Redis for counters and the bus (`REDIS_URL`). */
  redisUrl?: string | undefined;
  /** The PostgreSQL server `db` is on (`DATABASE_URL`): its LISTEN connection carries the bus. */
  databaseUrl?: string | undefined;
  /**
   * Names this deployment's Redis keys (`<namespace>:`) and its NOTIFY channel, so deployments
   * or test suites sharing one Redis or one database do not mix. Default "wikistruct".
   */
  namespace?: string;
  /** Force the request limit into the shared store (tests: two apps on one embedded database). */
  shareRequestLimit?: boolean;
  onError?: (error: Error) => void;
}

const hubs = new WeakMap<Db, LocalHub>();

/** The in-process bus of a database handle: every app built on that handle hears the others. */
function localBus(db: Db): Bus {
  let hub = hubs.get(db);
  if (hub === undefined) hubs.set(db, (hub = new LocalHub()));
  return hub.endpoint();
}

/**
 * One process on its own database: what buildApp uses when given nothing else. `requestLimitShared`:
 * tests running two apps on one embedded database (`shareRequestLimit`).
 */
export function embeddedSharedState(db: Db, clock: Clock, requestLimitShared = false): SharedState {
  const bus = localBus(db);
  return { limiter: new SqlLimiter(db, clock), requestLimitShared, bus, close: () => bus.close() };
}

export async function openSharedState(options: SharedStateOptions): Promise<SharedState> {
  const namespace = options.namespace ?? 'wikistruct';
  if (options.redisUrl !== undefined) {
    // maxRetriesPerRequest: a limiter call while Redis is away fails after one retry (the
    // request gets a 500) instead of queueing forever; ioredis keeps reconnecting meanwhile.
    // Loaded only here, as the PostgreSQL client below: an embedded server's start skips both.
    const { Redis } = await import('ioredis');
    const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
    // The first connection's failure is the start's error (its cause names the socket error);
    // later ones are logged while ioredis reconnects.
    let connected = false;
    let lastError: Error | undefined;
    redis.on('error', (error: Error) => {
      lastError = error;
      if (connected) options.onError?.(error);
    });
    try {
      await redis.connect().catch((error: unknown) => {
        throw new Error(`cannot connect to Redis at REDIS_URL: ${(lastError ?? (error as Error)).message}`);
      });
      connected = true;
      const bus = await openRedisBus(redis, `${namespace}:bus`);
      return {
        limiter: new RedisLimiter(redis, `${namespace}:`, options.clock),
        requestLimitShared: true,
        bus,
        close: async () => {
          await bus.close();
          await redis.quit().catch(() => redis.disconnect());
        },
      };
    } catch (error) {
      redis.disconnect();
      throw error;
    }
  }
  if (options.databaseUrl !== undefined) {
    const { openPgBus } = await import('./pubsub-pg.js');
    const bus = await openPgBus({
      connectionString: options.databaseUrl,
      channel: namespace,
      db: options.db,
      ...(options.onError === undefined ? {} : { onError: options.onError }),
    });
    return { limiter: new SqlLimiter(options.db, options.clock), requestLimitShared: true, bus, close: () => bus.close() };
  }
  return embeddedSharedState(options.db, options.clock, options.shareRequestLimit ?? false);
}
