import type { Clock } from '../clock.js';
import type { Db } from '../storage/db.js';
import { distinctLimits, makeTicket, retryAfterSeconds, type Held, type Limit, type Limiter, type Ticket } from './limiter.js';

interface CounterRow {
  key: string;
  used: number;
  window_end: Date;
}

/**
 * Fixed-window counters in the `auth_throttle` table, shared by every process on the database.
 *
 * `take` is one `INSERT … ON CONFLICT DO UPDATE … RETURNING` over all the attempt's counters: it
 * starts a new window where the old one ended, adds one to each counter and returns the new
 * values. PostgreSQL applies it under row locks, so simultaneous attempts (from any process) see
 * each other's increments and the one that finds a counter past its maximum is refused: the
 * decision and the count cannot be separated. A refused attempt then takes its increments back,
 * so refusals do not eat into counters they did not exceed.
 */
export class SqlLimiter implements Limiter {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs one limiter statement without waiting for its commit to reach the disk. Counters need
   * atomicity, not durability: a database crash may forget the last fraction of a second of
   * counts, which is harmless, whereas a WAL flush per attempt cost a successful refresh or login
   * two flushes (about 4 ms each on the PostgreSQL server here; nothing on PGlite).
   */
  private run<T>(sql: string, params: readonly unknown[]): Promise<T[]> {
    return this.db.transaction(async (tx) => {
      await tx.query('SET LOCAL synchronous_commit = off');
      return tx.query<T>(sql, params);
    });
  }

  async take(requested: readonly Limit[]): Promise<Ticket> {
    const limits = distinctLimits(requested);
    if (limits.length === 0) return this.ticket([], true, [], 0);
    const now = this.clock.now().getTime();
    const rows = await this.run<CounterRow>(
      `INSERT INTO auth_throttle AS t (key, used, window_end)
       SELECT v.key, 1, v.window_end FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS v(key, window_end, n)
        ORDER BY v.n
       ON CONFLICT (key) DO UPDATE SET
         used = CASE WHEN t.window_end <= $3 THEN 1 ELSE t.used + 1 END,
         window_end = CASE WHEN t.window_end <= $3 THEN EXCLUDED.window_end ELSE t.window_end END
       RETURNING t.key, t.used, t.window_end`,
      [limits.map((l) => l.key), limits.map((l) => new Date(now + l.windowMs).toISOString()), new Date(now).toISOString()],
    );
    const held = rows.map((r) => ({ key: r.key, windowEnd: r.window_end.getTime() }));
    const full = rows.filter((r) => r.used > (limits.find((l) => l.key === r.key)?.max ?? 0));
    if (full.length === 0) return this.ticket(held, true, [], 0);
    await this.release(held, []);
    return this.ticket([], false, full.map((r) => r.key), retryAfterSeconds(full.map((r) => r.window_end.getTime()), now));
  }

  private ticket(held: readonly Held[], allowed: boolean, refused: readonly string[], retryAfter: number): Ticket {
    return makeTicket(held, allowed, refused, retryAfter, (h, clear) => this.release(h, clear));
  }

  /**
   * One statement: minus one on each held counter still in the window it was taken in, zero on
   * `clear`. The rows are locked in key order first (bytewise, as `distinctLimits` orders the keys
   * `take` locks), so a release and a take sharing two counters cannot deadlock.
   */
  private async release(held: readonly Held[], clear: readonly string[]): Promise<void> {
    if (held.length === 0 && clear.length === 0) return;
    await this.run(
      `WITH target AS (
         SELECT t.key FROM auth_throttle t
          WHERE t.key = ANY($3::text[])
             OR (t.key, t.window_end) IN (SELECT h.key, h.window_end FROM unnest($1::text[], $2::timestamptz[]) AS h(key, window_end))
          ORDER BY t.key COLLATE "C"
          FOR UPDATE)
       UPDATE auth_throttle AS t SET used = CASE WHEN t.key = ANY($3::text[]) THEN 0 ELSE greatest(t.used - 1, 0) END
         FROM target WHERE t.key = target.key`,
      [held.map((h) => h.key), held.map((h) => new Date(h.windowEnd).toISOString()), [...clear]],
    );
  }
}
