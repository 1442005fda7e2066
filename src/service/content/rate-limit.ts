/**
 * A token bucket per account for /v2: `burst` requests at once, refilled at `perSecond`. In
 * memory, per process: with several processes behind a balancer each allows the full rate (the
 * limit protects a process's CPU, which is what parsing consumes). Time comes from the clock.
 */
import { z } from 'zod';
import type { Clock } from '../clock.js';

export const RateLimitSchema = z.object({
  perSecond: z.number().positive().default(20),
  burst: z.number().int().positive().default(100),
});
export type RateLimitSettings = z.infer<typeof RateLimitSchema>;

const MAX_BUCKETS = 100_000;

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
