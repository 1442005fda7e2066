/**
 * The per-client request limit of /v2 (an account, or an address before sign-in): `burst`
 * requests at once, `perSecond` on average. Two implementations behind `RequestLimiter`:
 *
 * - one process (the embedded database): a token bucket in memory, exact because no other
 *   process serves the same clients, and free on the hot path (no database round trip);
 * - several processes (a PostgreSQL server or Redis): a fixed-window counter per client in the
 *   shared limiter store (auth/limiter.ts: one atomic statement or script per request), `burst`
 *   requests per window of `burst / perSecond` seconds. Same long-run rate and the same 429 with
 *   Retry-After, but not the same shape: a client may spend a whole window's requests at its end
 *   and the next window's at once (up to 2 × burst in a short span), and a refused client waits
 *   for the window's end rather than for one token.
 *
 * Time comes from the clock.
 */
import { z } from 'zod';
import type { Limiter } from '../auth/limiter.js';
import type { Clock } from '../clock.js';
import { tooManyRequests } from '../errors.js';
import type { Metrics } from '../metrics.js';

export const RateLimitSchema = z.object({
  perSecond: z.number().positive().default(20),
  burst: z.number().int().positive().default(100),
});
export type RateLimitSettings = z.infer<typeof RateLimitSchema>;

export interface RequestLimiter {
  /** 0 when `key` may go ahead (its request is counted); otherwise the seconds until it may. */
  take(key: string): Promise<number>;
}

const MAX_BUCKETS = 100_000;

/** The in-memory token bucket, per process: the request limit when one process serves every client. */
export class RateLimiter {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private readonly settings: RateLimitSettings,
    private readonly clock: Clock,
  ) {}

  /** 0 when `key` may go ahead (and a token is taken); otherwise the seconds until it may. */
  take(key: string): number {
    const now = this.clock.now().getTime();
    const { perSecond, burst } = this.settings;
    let bucket = this.#buckets.get(key);
    if (bucket === undefined) {
      if (this.#buckets.size >= MAX_BUCKETS) this.#buckets.delete(this.#buckets.keys().next().value as string);
      bucket = { tokens: burst, at: now };
      this.#buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * perSecond);
      bucket.at = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
  }
}

/**
 * Counter keys of each request limit in the shared store, apart from the auth throttles' keys
 * and from each other: /v2's reads and the explorer's parsing (routes/v2/parse/) are two
 * budgets per client, not one.
 */
export const REQUEST_LIMIT_KEYS = { content: 'v2-rate:', parse: 'v2-parse-rate:' } as const;

/**
 * A request limit for this deployment: over `shared` (the store every process uses) when
 * given, else in memory. `keyPrefix` names whose budget it is (REQUEST_LIMIT_KEYS).
 */
export function createRequestLimiter(settings: RateLimitSettings, clock: Clock, shared?: Limiter, keyPrefix: string = REQUEST_LIMIT_KEYS.content): RequestLimiter {
  if (shared === undefined) {
    const local = new RateLimiter(settings, clock);
    return { take: async (key) => local.take(key) };
  }
  const limit = { max: settings.burst, windowMs: Math.max(1, Math.round((settings.burst / settings.perSecond) * 1000)) };
  return {
    take: async (key) => {
      // Never given back: a served request is spent, as a token taken from the bucket is.
      const ticket = await shared.take([{ key: `${keyPrefix}${key}`, ...limit }]);
      return ticket.allowed ? 0 : ticket.retryAfterSeconds;
    },
  };
}

/** Takes a request from `key`'s budget, or refuses with a 429 and Retry-After (counted in `metrics`). */
export async function limitOrThrow(limiter: RequestLimiter, metrics: Metrics, key: string): Promise<void> {
  const wait = await limiter.take(key);
  if (wait > 0) {
    metrics.rateLimited.inc();
    throw tooManyRequests(`rate limit exceeded; retry in ${wait} s`, wait);
  }
}
