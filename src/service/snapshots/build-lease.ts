/**
 * One snapshot build at a time across the processes of a deployment: serve's schedule in each
 * server on one PostgreSQL, and a `wikistruct snapshot build` beside them. A build is heavy (it
 * reads every stored article and may parse many), and two at once would only compete for the
 * same database and disks; the per-snapshot lock file (build-lock.ts) cannot see processes that
 * do not share the directory. So the builder holds the lease of one database row
 * (`snapshot_build_lease`, migration 0008), renews it while it builds, and gives it back when
 * done; a holder that died stops renewing, its lease expires and the next builder takes it.
 *
 * Times come from the injected clock, as every time the service writes (migrations.ts).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../clock.js';
import { processAlive } from '../process-alive.js';
import type { Db } from '../storage/db.js';

/** How long a lease lasts without renewal: a builder renews it after each snapshot and on a timer. */
export const LEASE_MS = 5 * 60 * 1000;

export class BuildLeaseBusyError extends Error {
  constructor(readonly holder: string) {
    super(`a snapshot build is running in another process (${holder}); try again when it is done`);
    this.name = 'BuildLeaseBusyError';
  }
}

export interface BuildLease {
  readonly holder: string;
  /** Extends the lease; false when it was lost (expired and taken by another builder). */
  renew(): Promise<boolean>;
  release(): Promise<void>;
}

/** Who builds: the host and process, and a random part so two leases of one process differ. */
export function leaseHolder(): string {
  return `${hostname()} pid ${process.pid} #${randomBytes(3).toString('hex')}`;
}

/** Whether a holder (leaseHolder) is a process of this machine that no longer runs. */
function deadHereHolder(holder: string): boolean {
  const match = /^(.*) pid (\d+) #[0-9a-f]+$/.exec(holder);
  return match !== null && match[1] === hostname() && Number(match[2]) !== process.pid && !processAlive(Number(match[2]));
}

/** Takes the lease, or answers who holds it. */
export async function acquireBuildLease(db: Db, clock: Clock, holder: string = leaseHolder(), leaseMs = LEASE_MS): Promise<BuildLease | { busy: string }> {
  const now = clock.now();
  const until = new Date(now.getTime() + leaseMs);
  // Insert the row, or take it over when its lease expired (or is already ours): one statement,
  // so two builders racing for it cannot both win.
  const taken = await db.query<{ holder: string }>(
    `INSERT INTO snapshot_build_lease (id, holder, expires_at) VALUES (1, $1, $2)
     ON CONFLICT (id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
     WHERE snapshot_build_lease.expires_at <= $3 OR snapshot_build_lease.holder = EXCLUDED.holder
     RETURNING holder`,
    [holder, until.toISOString(), now.toISOString()],
  );
  if (taken.length === 0) {
    const current = (await db.query<{ holder: string }>('SELECT holder FROM snapshot_build_lease WHERE id = 1'))[0]?.holder;
    if (current === undefined || !deadHereHolder(current)) return { busy: current ?? 'another process' };
    // Its builder was a process of this machine that is gone (killed mid-build): no need to wait for the lease to expire.
    const over = await db.query('UPDATE snapshot_build_lease SET holder = $1, expires_at = $2 WHERE id = 1 AND holder = $3 RETURNING holder', [holder, until.toISOString(), current]);
    if (over.length === 0) return { busy: current };
  }
  let released = false;
  return {
    holder,
    async renew() {
      if (released) return false;
      const renewed = await db.query<{ holder: string }>('UPDATE snapshot_build_lease SET expires_at = $2 WHERE id = 1 AND holder = $1 RETURNING holder', [
        holder,
        new Date(clock.now().getTime() + leaseMs).toISOString(),
      ]);
      return renewed.length === 1;
    },
    async release() {
      if (released) return;
      released = true;
      await db.query('DELETE FROM snapshot_build_lease WHERE id = 1 AND holder = $1', [holder]);
    },
  };
}

/**
 * Runs `build` holding the lease, renewed every third of its length while it runs (`between`
 * also renews it, so a build whose timer is held up still keeps it). Throws BuildLeaseBusyError
 * when another process holds it.
 */
export async function withBuildLease<T>(
  db: Db,
  clock: Clock,
  build: (renew: () => Promise<void>) => Promise<T>,
  options: { holder?: string; leaseMs?: number } = {},
): Promise<T> {
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const lease = await acquireBuildLease(db, clock, options.holder, leaseMs);
  if ('busy' in lease) throw new BuildLeaseBusyError(lease.busy);
  const renew = async (): Promise<void> => {
    await lease.renew();
  };
  const timer = setInterval(() => void renew().catch(() => {}), Math.max(1000, Math.floor(leaseMs / 3)));
  timer.unref();
  try {
    return await build(renew);
  } finally {
    clearInterval(timer);
    await lease.release();
  }
}
