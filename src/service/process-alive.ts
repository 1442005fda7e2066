/**
 * Whether a process holding a lock file (by pid) still runs on this machine: the check behind the
 * data directory's lock (storage/lock.ts) and a snapshot build's lock (snapshots/build-lock.ts),
 * which take over the lock of a holder that died (crash, kill -9).
 */
export function processAlive(pid: number): boolean {
  // 0 and negative numbers name process groups, not a holder: such a lock file is garbage.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0); // signal 0: nothing is sent, only whether the process exists
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
