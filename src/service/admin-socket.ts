import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { AdminCommandSchema, runAdminCommand, type AdminCommand, type AdminHooks } from './admin-commands.js';
import type { Clock } from './clock.js';
import type { Db } from './storage/db.js';

/**
 * While a server holds the embedded database, `wikistruct user` and `wikistruct import` cannot
 * open it (one process only), so the server runs the command for them (admin-commands.ts). The channel is a Unix socket in the data
 * directory, mode 0600: only the operating-system user that owns the server can connect, the same
 * user who could open the database files anyway. One JSON request line, one JSON reply line.
 */
export const ADMIN_SOCKET = 'admin.sock';
/** Unix socket paths are limited to ~107 bytes; beyond that the socket is not offered. */
const MAX_SOCKET_PATH = 100;
const MAX_REQUEST_BYTES = 64 * 1024;

export interface AdminSocket {
  path: string;
  close(): Promise<void>;
}

/**
 * `afterCommand` runs after each command that succeeded, so the server can drop what it cached
 * about the accounts (a `user disable` is then refused at once here, as a revocation is).
 */
export async function listenAdminSocket(
  dataDir: string,
  db: Db,
  clock: Clock,
  logger: Logger,
  afterCommand?: (command: AdminCommand) => void,
  hooks: AdminHooks = {},
): Promise<AdminSocket | undefined> {
  const path = join(dataDir, ADMIN_SOCKET);
  if (path.length > MAX_SOCKET_PATH) {
    logger.warn({ path }, 'data directory path too long for the admin socket; `wikistruct user` will refuse while serving');
    return undefined;
  }
  // We hold the data-directory lock, so a socket file left here is from a dead server.
  if (existsSync(path)) unlinkSync(path);
  const server: Server = createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_REQUEST_BYTES) return void socket.destroy();
      const end = buffer.indexOf('\n');
      if (end < 0) return;
      socket.removeAllListeners('data');
      void answer(buffer.slice(0, end)).then((reply) => socket.end(`${JSON.stringify(reply)}\n`));
    });
  });
  const answer = async (line: string): Promise<{ ok: boolean; lines: string[] }> => {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return { ok: false, lines: ['admin request is not JSON'] };
    }
    const command = AdminCommandSchema.safeParse(json);
    if (!command.success) return { ok: false, lines: ['invalid admin request'] };
    try {
      const result = await runAdminCommand(db, clock, command.data, hooks);
      if (result.ok) afterCommand?.(command.data);
      logger.info({ action: command.data.action, ok: result.ok }, 'admin command over the admin socket');
      return result;
    } catch (error) {
      logger.error({ err: error }, 'admin command failed');
      return { ok: false, lines: [`${command.data.action} failed inside the server: ${error instanceof Error ? error.message : String(error)}`] };
    }
  };
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
    chmodSync(path, 0o600);
  } catch (error) {
    server.close();
    logger.warn({ err: error, path }, 'admin socket unavailable; `wikistruct user` will refuse while serving');
    return undefined;
  }
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if (existsSync(path)) unlinkSync(path);
      }),
  };
}

/**
 * Sends one command to the server listening on `path` and returns its answer, read with `schema`.
 * `timeoutMs` bounds the silence before the answer (0: none — an import of a dump takes hours;
 * the socket still fails at once if the server goes away).
 */
export function sendAdminCommand<T>(path: string, command: AdminCommand, schema: z.ZodType<T>, timeoutMs = 30_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let reply = '';
    socket.setEncoding('utf8');
    if (timeoutMs > 0) socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer from the server on ${path}`)));
    socket.on('connect', () => socket.write(`${JSON.stringify(command)}\n`));
    socket.on('data', (chunk: string) => (reply += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        resolve(schema.parse(JSON.parse(reply)));
      } catch {
        reject(new Error(`unreadable answer from the server on ${path}`));
      }
    });
  });
}
