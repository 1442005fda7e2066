/**
 * The server's snapshot schedule (`serve --snapshots-every`): builds every snapshot, structured
 * and regular, in the background, so that a server that holds articles serves snapshots of them
 * without anyone running `wikistruct snapshot build`:
 *
 * - on start, when a stored project and namespace has no snapshot yet (of either kind);
 * - every `everyMs` (a scheduled build is skipped when every snapshot in the directory is younger
 *   than half an interval: another server sharing the directory, or an import, just built them);
 * - after an import into this server (`request('import')`).
 *
 * Never on a request's path: requests read only what a finished build published (layout.ts).
 * Never two at once: in this process the builds (and `wikistruct snapshot build` sent over the
 * admin socket, `exclusive`) run one after the other, and across processes each holds the
 * database lease (build-lease.ts); a build that finds the lease taken tries again after
 * `retryMs`. Requests that arrive while a build is queued join it.
 *
 * Timers come from an injected Timer and times from the injected clock, so tests move time.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ContentService } from '../content/service.js';
import type { Clock } from '../clock.js';
import type { Db } from '../storage/db.js';
import { buildSnapshots, describeBuild, type BuildAllResult } from './build-all.js';
import { BuildLeaseBusyError, withBuildLease } from './build-lease.js';
import { listSidecars, kindDir, snapshotIdentifier, SNAPSHOT_KINDS } from './layout.js';
import { snapshotTargets } from './source.js';

export interface Timer {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** The longest a Node.js timer waits (2^31 - 1 ms, about 24.8 days); longer waits are chained. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemTimer: Timer = {
  set: (callback, ms) => setTimeout(callback, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** When a build finds another process building: try again after this long. */
export const DEFAULT_RETRY_MS = 60 * 1000;

export interface ScheduleSettings {
  /** Build every this many milliseconds; undefined or 0: no periodic build. */
  everyMs?: number | undefined;
  /** Build on start when a stored project and namespace has no snapshot (default true). */
  onStart?: boolean;
  timer?: Timer;
  retryMs?: number;
  /** The cross-process lease's length (build-lease.ts). */
  leaseMs?: number;
}

export interface SchedulerOptions extends ScheduleSettings {
  db: Db;
  clock: Clock;
  /** The snapshots directory. */
  dir: string;
  /** Parses what is not parsed yet for this engine version (the server's own service: its workers, its cache). */
  service: Pick<ContentService, 'articleJson' | 'pageLinks'>;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/** What the last build did, for the log and the tests. */
export interface BuildRecord {
  reason: string;
  /** The snapshots published, as `wikistruct snapshot build` prints them. */
  lines: string[];
  outcome: 'built' | 'skipped' | 'busy' | 'failed' | 'stopped';
  error?: string;
}

export class SnapshotScheduler {
  private chain: Promise<unknown> = Promise.resolve();
  /** A build is queued and has not started: later requests join it. */
  private queued = false;
  private closed = false;
  private readonly timers = new Set<unknown>();
  private readonly stop = new AbortController();
  private readonly timer: Timer;
  readonly history: BuildRecord[] = [];

  constructor(private readonly options: SchedulerOptions) {
    this.timer = options.timer ?? systemTimer;
  }

  start(): void {
    if (this.options.onStart !== false) this.enqueue('start', () => this.missingAny());
    const every = this.options.everyMs ?? 0;
    if (every > 0) this.after(every, () => this.scheduled(every));
  }

  /** Builds soon, in the background (after an import); joins a build already queued. */
  request(reason: string): void {
    this.enqueue(reason, async () => true);
  }

  /**
   * Runs `work` (a `wikistruct snapshot build` sent over the admin socket, which takes the
   * cross-process lease itself) when no build of this process runs.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work);
    this.chain = run.catch(() => {});
    return run;
  }

  /** Resolves once no build is running or queued (tests; shutdown). */
  async idle(): Promise<void> {
    let current: Promise<unknown>;
    do {
      current = this.chain;
      await current;
    } while (current !== this.chain);
  }

  /** No new builds; a build under way stops at its next page (it resumes from its checkpoint next time). */
  async close(): Promise<void> {
    this.closed = true;
    for (const handle of this.timers) this.timer.clear(handle);
    this.timers.clear();
    this.stop.abort();
    await this.idle();
  }

  private leaseOptions(): { leaseMs?: number } {
    return this.options.leaseMs === undefined ? {} : { leaseMs: this.options.leaseMs };
  }

  private after(ms: number, callback: () => void): void {
    if (this.closed) return;
    const wait = Math.min(ms, MAX_TIMER_MS);
    const handle = this.timer.set(() => {
      this.timers.delete(handle);
      if (ms > wait) this.after(ms - wait, callback);
      else callback();
    }, wait);
    this.timers.add(handle);
  }

  private scheduled(every: number): void {
    this.enqueue('schedule', () => this.due(every));
    this.after(every, () => this.scheduled(every));
  }

  private enqueue(reason: string, wanted: () => Promise<boolean>): void {
    if (this.closed || this.queued) return;
    this.queued = true;
    this.chain = this.chain.then(async () => {
      this.queued = false;
      if (this.closed) return;
      try {
        if (!(await wanted())) return void this.record({ reason, lines: [], outcome: 'skipped' });
        await this.build(reason);
      } catch (error) {
        this.record({ reason, lines: [], outcome: 'failed', error: error instanceof Error ? error.message : String(error) });
      }
    });
  }

  private async build(reason: string): Promise<void> {
    const { db, clock, dir, service } = this.options;
    const lines: string[] = [];
    let result: BuildAllResult;
    try {
      result = await withBuildLease(
        db,
        clock,
        (renew) =>
          buildSnapshots({
            db,
            clock,
            dir,
            service,
            signal: this.stop.signal,
            between: renew,
            onBuilt: (built, seconds) => lines.push(describeBuild(built, seconds)),
          }),
        this.leaseOptions(),
      );
    } catch (error) {
      if (error instanceof BuildLeaseBusyError) {
        this.record({ reason, lines, outcome: 'busy', error: error.message });
        this.after(this.options.retryMs ?? DEFAULT_RETRY_MS, () => this.request(reason));
        return;
      }
      if (this.stop.signal.aborted) return void this.record({ reason, lines, outcome: 'stopped' });
      throw error;
    }
    this.record({ reason, lines, outcome: result.built.length === 0 ? 'skipped' : 'built' });
  }

  private record(entry: BuildRecord): void {
    this.history.push(entry);
    if (this.history.length > 20) this.history.shift();
    const { logger } = this.options;
    if (entry.outcome === 'failed') logger.error({ reason: entry.reason, err: entry.error }, 'snapshot build failed');
    else if (entry.outcome === 'busy') logger.info({ reason: entry.reason, holder: entry.error }, 'snapshot build postponed: another process is building');
    else if (entry.outcome === 'built') logger.info({ reason: entry.reason, snapshots: entry.lines }, 'snapshots built');
  }

  /** Whether a stored project and namespace has no snapshot of some kind. */
  private async missingAny(): Promise<boolean> {
    const targets = await snapshotTargets(this.options.db);
    for (const kind of SNAPSHOT_KINDS) {
      const built = new Set((await listSidecars(kindDir(this.options.dir, kind))).map((s) => s.identifier));
      if (targets.some((t) => !built.has(snapshotIdentifier(t.project, t.namespace)))) return true;
    }
    return false;
  }

  /** Whether the scheduled build is due: some snapshot is missing, or older than half an interval. */
  private async due(every: number): Promise<boolean> {
    if (await this.missingAny()) return true;
    const now = this.options.clock.now().getTime();
    for (const kind of SNAPSHOT_KINDS) {
      const sidecars = await listSidecars(kindDir(this.options.dir, kind));
      if (sidecars.some((s) => now - Date.parse(s.date_modified) >= every / 2)) return true;
    }
    return false;
  }
}
