import type { Clock } from '../clock.js';
import type { Queryable } from '../storage/db.js';
import { tooManyRequests } from '../errors.js';

/** One counter: its key in `auth_throttle` and how many events per window it allows. */
export interface Limit {
  key: string;
  max: number;
}

/**
 * Fixed-window counters kept in the database, so every process on the database shares them.
 * A counter that reached its maximum refuses further attempts with 429 and `Retry-After` until
 * its window ends. Checking and counting are separate statements: a burst of simultaneous
 * attempts can overshoot by the number in flight, which the cost of argon2 keeps small.
 */
export class Throttle {
  constructor(
    private readonly db: Queryable,
    private readonly clock: Clock,
    private readonly windowMs: number,
  ) {}

  /** Throws 429 if any of the counters is exhausted. */
  async check(limits: readonly Limit[]): Promise<void> {
    if (limits.length === 0) return;
    const now = this.clock.now().getTime();
    const params = limits.map((l) => l.key);
    const placeholders = params.map((_, i) => `$${i + 1}`).join(', ');
    const rows = await this.db.query<{ key: string; failures: number; window_start: Date }>(
      `SELECT key, failures, window_start FROM auth_throttle WHERE key IN (${placeholders})`,
      params,
    );
    let retryAfterMs = 0;
    for (const row of rows) {
      const limit = limits.find((l) => l.key === row.key);
      const windowEnd = row.window_start.getTime() + this.windowMs;
      if (limit !== undefined && row.failures >= limit.max && windowEnd > now) retryAfterMs = Math.max(retryAfterMs, windowEnd - now);
    }
    if (retryAfterMs > 0) {
      throw tooManyRequests('too many attempts; try again later', Math.ceil(retryAfterMs / 1000));
    }
  }

  /** Counts one event on each counter, starting a new window where the old one ended. */
  async count(limits: readonly Limit[]): Promise<void> {
    const now = this.clock.now();
    const windowStartedBefore = new Date(now.getTime() - this.windowMs).toISOString();
    for (const { key } of limits) {
      await this.db.query(
        `INSERT INTO auth_throttle (key, failures, window_start) VALUES ($1, 1, $2)
         ON CONFLICT (key) DO UPDATE SET
           failures = CASE WHEN auth_throttle.window_start <= $3 THEN 1 ELSE auth_throttle.failures + 1 END,
           window_start = CASE WHEN auth_throttle.window_start <= $3 THEN $2::timestamptz ELSE auth_throttle.window_start END`,
        [key, now.toISOString(), windowStartedBefore],
      );
    }
  }

  /** Forgets a counter: a successful login clears its account's failures. */
  async reset(key: string): Promise<void> {
    await this.db.query('DELETE FROM auth_throttle WHERE key = $1', [key]);
  }
}
