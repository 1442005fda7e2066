/**
 * One build of a snapshot at a time, across processes (a `wikistruct snapshot build` beside a
 * server that builds, or two servers on one PostgreSQL sharing a directory): a lock file created
 * exclusively, holding the builder's pid. A lock whose process is gone (crash, kill -9) is stale
 * and taken over, which is what lets the next build resume after a crash.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { processAlive } from '../process-alive.js';

export class SnapshotBusyError extends Error {
  constructor(
    readonly identifier: string,
    readonly pid: number,
  ) {
    super(`${identifier} is being built by another process (pid ${pid}); try again when it is done`);
    this.name = 'SnapshotBusyError';
  }
}

export interface BuildLock {
  release(): void;
}

export function acquireBuildLock(path: string, identifier: string): BuildLock {
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const holder = Number(readFileSync(path, 'utf8'));
      if (processAlive(holder)) throw new SnapshotBusyError(identifier, holder);
      unlinkSync(path); // stale: its builder died
    }
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      try {
        unlinkSync(path);
      } catch {
        // already gone: nothing to release
      }
    },
  };
}
