/**
 * The throttling contract of the auth service, independent of where the counters live (the
 * database today: sql-limiter.ts; Redis later). An attempt first takes one slot on each of its
 * counters, in one atomic step, and is refused when any counter is full: the decision and the
 * count are one operation, so N simultaneous attempts against k free slots let exactly k through.
 * A slot stays taken while the attempt is in flight; a failure keeps it until the window ends, a
 * success gives it back. What a counter therefore limits is failures (plus attempts in flight).
 */

/** One counter: its key, how many slots it has per fixed window, and the window's length. */
export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

export interface Ticket {
  /** True when every counter had a free slot; the slots are then held until given back. */
  readonly allowed: boolean;
  /** When refused: seconds until the last of the refusing windows ends (for `Retry-After`); else 0. */
  readonly retryAfterSeconds: number;
  /** When refused: the keys whose counters were full. A refused ticket holds no slot. */
  readonly refused: readonly string[];
  /**
   * Gives this ticket's slots back (the attempt succeeded, so it is no failure) and empties the
   * counters named in `clear` altogether (a successful login forgives the account's failures).
   * A slot taken in a window that has since ended is not given back to the new window.
   */
  giveBack(clear?: readonly string[]): Promise<void>;
}

export interface Limiter {
  take(limits: readonly Limit[]): Promise<Ticket>;
}

/** A slot an allowed ticket holds: its counter's key and the end of the window it was taken in. */
export interface Held {
  key: string;
  windowEnd: number;
}

/** A ticket whose `giveBack` hands `held` and the keys to clear to its limiter's `release`. */
export function makeTicket(
  held: readonly Held[],
  allowed: boolean,
  refused: readonly string[],
  retryAfter: number,
  release: (held: readonly Held[], clear: readonly string[]) => Promise<void>,
): Ticket {
  return { allowed, refused, retryAfterSeconds: retryAfter, giveBack: (clear = []) => release(held, clear) };
}

/** The same key twice in one attempt would take two slots; keep one, with the stricter limit. */
export function distinctLimits(limits: readonly Limit[]): Limit[] {
  const byKey = new Map<string, Limit>();
  for (const limit of limits) {
    const seen = byKey.get(limit.key);
    if (seen === undefined || limit.max < seen.max) byKey.set(limit.key, limit);
  }
  // A fixed order: two attempts sharing counters lock them in the same order, so never deadlock.
  // Bytewise UTF-8, which is what the SQL limiter's `COLLATE "C"` orders by too.
  return [...byKey.values()].sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
}

export function retryAfterSeconds(windowEndsMs: readonly number[], nowMs: number): number {
  const latest = Math.max(nowMs, ...windowEndsMs);
  return Math.max(1, Math.ceil((latest - nowMs) / 1000));
}
