/**
 * Where a command that needs the database runs. The embedded database may be open in one process
 * only: while `wikistruct serve` holds it, `user`, `import` and `snapshot build` send their
 * command to that server through its admin socket (src/service/admin-socket.ts) instead, and what
 * they change is served at once. With DATABASE_URL, or when no server holds the data directory,
 * they open the database themselves.
 */
import type { z } from 'zod';
import type { AdminCommand } from '../service/admin-commands.js';
import { sendAdminCommand } from '../service/admin-socket.js';
import type { Db } from '../service/storage/db.js';
import { SharedDataDirError } from '../service/storage/data-dir.js';
import { DataDirLockedError } from '../service/storage/lock.js';
import type { LockInfo } from '../service/storage/lock.js';
import { openStorage } from '../service/storage/open.js';

export type Ran<T> =
  | { where: 'here'; result: T }
  /** Run by the server holding the database; `holder` says which (pid, url) for the report. */
  | { where: 'server'; result: T; holder: LockInfo }
  /** Neither: the database is held by a process without an admin socket, or the socket failed. */
  | { where: 'nowhere'; message: string };

export interface RunRequest<T> {
  dataDir: string;
  /** Recorded in the lock file while this process holds the database: "wikistruct import". */
  name: string;
  command: AdminCommand;
  /** Reads the server's answer. */
  schema: z.ZodType<T>;
  /** Silence allowed before the server's answer; 0 for commands that take long (an import). */
  timeoutMs?: number;
  /** The command run in this process, on the database it opened (closed afterwards). */
  here: (db: Db) => Promise<T>;
  /** `--allow-shared-data-dir`: open the database here even in a directory others can reach. */
  allowSharedDataDir?: boolean;
}

export async function runHereOrInServer<T>(request: RunRequest<T>): Promise<Ran<T>> {
  let storage;
  try {
    storage = await openStorage({
      dataDir: request.dataDir,
      databaseUrl: process.env['DATABASE_URL'] || undefined,
      command: request.name,
      privacy: { allowShared: request.allowSharedDataDir ?? false },
    });
  } catch (error) {
    if (error instanceof SharedDataDirError) return { where: 'nowhere', message: error.message };
    if (!(error instanceof DataDirLockedError)) throw error;
    const socket = error.holder.admin_socket;
    if (socket === null || socket === undefined) return { where: 'nowhere', message: error.message };
    try {
      return { where: 'server', result: await sendAdminCommand(socket, request.command, request.schema, request.timeoutMs), holder: error.holder };
    } catch (cause) {
      return { where: 'nowhere', message: `${error.message} (its admin socket failed: ${(cause as Error).message})` };
    }
  }
  try {
    return { where: 'here', result: await request.here(storage.db) };
  } finally {
    await storage.db.close();
  }
}
