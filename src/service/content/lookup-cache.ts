/**
 * The store's rows for a normalised title (every project's), reused for a short while so that
 * a popular article does not cost a database query per request: with the embedded database that
 * query runs on the event loop (PGlite is WebAssembly on the main thread), 0.4–0.65 ms each.
 *
 * How stale an entry may be: `maxAgeMs` (default the revocation window, 2 s: a process may act
 * on a revoked token that long, and on another process's import no longer), by the injected
 * clock. A write in this process drops the entry at once (`invalidate`, called by the store's
 * write listeners); a write by another process is seen within `maxAgeMs`, or at once when a
 * cross-process notification calls `invalidate` too.
 */
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.js';
import { SingleFlight } from './single-flight.js';
import type { FoundRow } from './store.js';

export interface LookupCacheOptions<R> {
  clock: Clock;
  /** How long rows read from the database are trusted; 0 asks the database every time. */
  maxAgeMs: number;
  /** Titles remembered at most (each entry is a few rows of metadata, no Article text). */
  maxTitles?: number;
  /** Every stored row whose normalised title is `title`. */
  load(title: string): Promise<R[]>;
}

interface Entry<R> {
  rows: R[];
  readAt: number;
}

/** `R`: the row type the store's lookup returns (its rows with their age). */
export class LookupCache<R = FoundRow> {
  readonly #options: LookupCacheOptions<R>;
  readonly #entries: LRUCache<string, Entry<R>>;
  readonly #loading = new SingleFlight<string, R[]>();
  /**
   * Bumped by every invalidation. A read that began before one may have seen the old rows: it is
   * not stored, and requests that arrive after it start a read of their own rather than join it.
   */
  #generation = 0;

  constructor(options: LookupCacheOptions<R>) {
    this.#options = options;
    this.#entries = new LRUCache({ max: options.maxTitles ?? 10_000 });
  }

  async rows(title: string): Promise<R[]> {
    const now = this.#options.clock.now().getTime();
    const entry = this.#entries.get(title);
    // A clock that went back (a test, an NTP step) makes the entry's age unknown: read again.
    if (entry !== undefined && now >= entry.readAt && now - entry.readAt < this.#options.maxAgeMs) return entry.rows;
    const generation = this.#generation;
    return this.#loading.run(`${generation}\u0000${title}`, async () => {
      const rows = await this.#options.load(title);
      if (generation === this.#generation && this.#options.maxAgeMs > 0) this.#entries.set(title, { rows, readAt: now });
      return rows;
    });
  }

  /** Forgets what was read for this normalised title (any project): the next request reads it again. */
  invalidate(title: string): void {
    this.#generation += 1;
    this.#entries.delete(title);
  }

  get size(): number {
    return this.#entries.size;
  }
}
