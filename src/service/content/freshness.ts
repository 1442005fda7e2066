/**
 * Keeps stored articles in step with their wikis. A stored article is served at once, whatever
 * its age; once the wiki last confirmed it longer than `maxAgeMs` ago, a request for it also
 * starts a revalidation in the background: one cheap request for the page's metadata
 * (WikiClient.fetchLatest), and only when the wiki has a newer revision, the fetch, parse and
 * store of the article (the upstream loader). Storing it tells this process's caches and, over
 * the bus, the other processes' (store.ts). A followed change stream (follow.ts) asks for a
 * refresh directly, naming the revision it announced.
 *
 * One revalidation per article is in flight across all processes: within one, a single flight;
 * between them, a lease in the article's row that one UPDATE grants to exactly one process
 * (ArticleStore.claimRevalidation). A failed revalidation keeps the lease for `retryMs`, so a
 * failing wiki is asked about an article at most that often, by anyone.
 */
import type { Clock } from '../clock.js';
import { SingleFlight } from './single-flight.js';
import type { ArticleStore, FoundRow } from './store.js';
import { toDbKey } from './title.js';

/** What became of one revalidation. */
export type Revalidation =
  /** The wiki's latest revision is the stored one; it now counts as confirmed. */
  | 'confirmed'
  /** A newer revision was fetched, parsed and stored. */
  | 'refreshed'
  /** Not needed or not ours: fresh by now, another process holds the lease, or nothing is stored. */
  | 'skipped'
  /** The wiki could not say (down, timed out, the page gone); the stored article stays. */
  | 'failed';

export interface FreshnessOptions {
  store: ArticleStore;
  clock: Clock;
  /** How long after the wiki confirmed a stored revision it is served without asking again; 0: ask on every request. */
  maxAgeMs: number;
  /** The wiki's latest revision of a stored article (one cheap request). */
  latest(project: string, title: string): Promise<{ revision: number }>;
  /** Fetches, parses and stores the article's current revision. */
  refresh(project: string, title: string): Promise<void>;
  /** Called after a revalidation of `title` changed what is stored about it (its lookup is stale). */
  changed(project: string, title: string): void;
  /** Told of every failure (logged by the caller). */
  onFailure?: (project: string, title: string, error: unknown) => void;
  /** How long a process may hold a lease before it counts as lost (the process died). Default 2 min. */
  leaseMs?: number;
  /** After a failure, how long nobody asks the wiki about that article again. Default 1 min. */
  retryMs?: number;
}

export class Freshness {
  readonly #options: FreshnessOptions;
  readonly #leaseMs: number;
  readonly #retryMs: number;
  readonly #flight = new SingleFlight<string, Revalidation>();

  constructor(options: FreshnessOptions) {
    this.#options = options;
    this.#leaseMs = options.leaseMs ?? 2 * 60_000;
    this.#retryMs = options.retryMs ?? 60_000;
  }

  /** Seconds since the wiki last confirmed `row`, as the `Age` header says it (never negative). */
  ageSeconds(row: Pick<FoundRow, 'checkedAt'>): number {
    return Math.max(0, Math.floor((this.#options.clock.now().getTime() - row.checkedAt) / 1000));
  }

  /** Starts a background revalidation of a row about to be served, if it is older than the limit. */
  consider(row: FoundRow): void {
    if (this.#options.clock.now().getTime() - row.checkedAt < this.#options.maxAgeMs) return;
    // Failures of the wiki are handled inside; what is left (the database failing) is only told.
    this.revalidate(row).catch((error: unknown) => this.#options.onFailure?.(row.project, row.title, error));
  }

  /**
   * Revalidates a stored row by age (`force`: whatever its age): asks the wiki for its latest
   * revision, refreshes if newer.
   */
  revalidate(row: Pick<FoundRow, 'project' | 'title' | 'revision'>, force = false): Promise<Revalidation> {
    return this.#flight.run(keyOf(row.project, row.title), async () => {
      const now = this.#options.clock.now();
      const claimed = await this.#options.store.claimRevalidation(row.project, row.title, {
        now,
        leaseUntil: new Date(now.getTime() + this.#leaseMs),
        revision: row.revision,
        staleBefore: force ? now : new Date(now.getTime() - this.#options.maxAgeMs),
      });
      if (claimed === undefined) return this.#skipped(row.project, row.title);
      return this.#holding(row.project, row.title, async () => {
        const latest = await this.#options.latest(row.project, row.title);
        if (latest.revision > claimed) await this.#options.refresh(row.project, row.title);
        return { revision: latest.revision, outcome: latest.revision > claimed ? 'refreshed' : 'confirmed' };
      });
    });
  }

  /**
   * Refreshes a stored article the wiki announced a change of: only if its stored revision is
   * older than `revision`, and by no other process at the same time. No metadata request: the
   * announcement said what is current.
   */
  refresh(project: string, title: string, revision: number): Promise<Revalidation> {
    return this.#flight.run(keyOf(project, title), async () => {
      const now = this.#options.clock.now();
      const claimed = await this.#options.store.claimRevalidation(project, title, { now, leaseUntil: new Date(now.getTime() + this.#leaseMs), belowRevision: revision });
      if (claimed === undefined) return this.#skipped(project, title);
      return this.#holding(project, title, async () => {
        await this.#options.refresh(project, title);
        return { revision, outcome: 'refreshed' };
      });
    });
  }

  /** Revalidations running in this process now. */
  get inFlight(): number {
    return this.#flight.size;
  }

  /** Not ours: what this process remembers of the row may be behind (another process confirmed it). */
  #skipped(project: string, title: string): Revalidation {
    this.#options.changed(project, title);
    return 'skipped';
  }

  /** Runs `work` under a lease just taken, and ends the lease by its outcome. */
  async #holding(project: string, title: string, work: () => Promise<{ revision: number; outcome: Revalidation }>): Promise<Revalidation> {
    try {
      const { revision, outcome } = await work();
      await this.#options.store.finishRevalidation(project, title, { now: this.#options.clock.now(), confirmed: revision });
      this.#options.changed(project, title);
      return outcome;
    } catch (error) {
      this.#options.onFailure?.(project, title, error);
      const retryAt = new Date(this.#options.clock.now().getTime() + this.#retryMs);
      await this.#options.store.finishRevalidation(project, title, { retryAt }).catch((failed: unknown) => this.#options.onFailure?.(project, title, failed));
      return 'failed';
    }
  }
}

function keyOf(project: string, title: string): string {
  return `${project}\u0000${toDbKey(title)}`;
}
