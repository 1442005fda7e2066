import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { processAlive } from '../process-alive.js';

/**
 * The embedded database may be opened by one process only: a second PGlite on the same files
 * would corrupt them. Whoever opens it (the server, or a `wikistruct user` command) first creates
 * this lock file exclusively, recording its pid and, for a server, the address it listens on, so
 * that a refused command can say who holds the database.
 */
export const LOCK_FILE = 'wikistruct.lock';

const LockInfoSchema = z.object({
  pid: z.number().int(),
  command: z.string(),
  url: z.string().nullable(),
  /** The server's admin socket (admin-socket.ts), through which `wikistruct user` reaches it. */
  admin_socket: z.string().nullable().optional(),
  started_at: z.string(),
});
export type LockInfo = z.infer<typeof LockInfoSchema>;

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockInfo,
  ) {
    const where = holder.url === null ? '' : ` listening on ${holder.url}`;
    super(
      `the embedded database in ${dataDir} is in use by ${holder.command} (pid ${holder.pid}${where}); ` +
        `stop it first, or point both at a PostgreSQL server with DATABASE_URL`,
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly path: string;
  /** Records where the server listens, for the message other processes print (and the socket they use). */
  announce(where: { url: string; adminSocket?: string | undefined }): void;
  release(): void;
}

export function acquireDataDirLock(dataDir: string, command: string): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  const info: LockInfo = { pid: process.pid, command, url: null, started_at: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, JSON.stringify(info), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const holder = readHolder(path);
      if (holder !== undefined && processAlive(holder.pid)) throw new DataDirLockedError(dataDir, holder);
      // The holder died without cleaning up (crash, kill -9): the lock is stale.
      unlinkSync(path);
    }
  }
  let released = false;
  return {
    path,
    announce(where) {
      info.url = where.url;
      info.admin_socket = where.adminSocket ?? null;
      writeFileSync(path, JSON.stringify(info));
    },
    release() {
      if (released) return;
      released = true;
      if (readHolder(path)?.pid === process.pid) unlinkSync(path);
    },
  };
}

function readHolder(path: string): LockInfo | undefined {
  try {
    const parsed = LockInfoSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
