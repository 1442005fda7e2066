/**
 * `wikistruct import <inputs...>`: loads articles into the service's article store (the same
 * database as the accounts). While a server holds the embedded database, the import runs inside
 * that server through its admin socket (as `wikistruct user` does), and what it loads is served
 * at once; with DATABASE_URL it works beside running servers directly.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ImportResultSchema, runImportCommand, type ImportCommand } from '../service/admin-commands.js';
import { sendAdminCommand } from '../service/admin-socket.js';
import { systemClock } from '../service/clock.js';
import type { ImportSummary } from '../service/content/importer.js';
import { defaultDataDir } from '../service/server.js';
import { DataDirLockedError } from '../service/storage/lock.js';
import { openStorage } from '../service/storage/open.js';

const HELP = `usage: wikistruct import <inputs...> [--project CODE] [--data DIR] [--jobs N]

  inputs       HTML files, Enterprise envelopes (.json), NDJSON(.gz), snapshot .tar.gz, XML dumps,
               or directories of them
  --project    project code of every record (e.g. enwiki); needed for bare HTML without metadata
  --data       data directory of the embedded database (default $WIKISTRUCT_DATA or ./data)
  --jobs       parser threads (default: cores - 1, at least 1)

environment:
  DATABASE_URL   use this PostgreSQL server instead of the embedded database

A newer revision replaces the stored one; an older or equal one is skipped. While
\`wikistruct serve\` holds the embedded database, the import runs inside the server (through its
admin socket in the data directory) and the articles are served as soon as they are stored.
`;

const OptionsSchema = z.object({
  project: z.string().regex(/^[a-z][a-z0-9_]*$/, '--project must be a project code like "enwiki"').optional(),
  data: z.string().min(1).optional(),
  jobs: z.coerce.number().int('--jobs must be an integer').min(1, '--jobs must be at least 1').max(64).optional(),
  help: z.boolean(),
});

export async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        project: { type: 'string' },
        data: { type: 'string' },
        jobs: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`wikistruct import: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  const options = OptionsSchema.safeParse(parsed.values);
  if (!options.success) {
    process.stderr.write(`wikistruct import: ${options.error.issues[0]?.message ?? 'invalid options'}\n`);
    return 2;
  }
  if (options.data.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (parsed.positionals.length === 0) {
    process.stderr.write(`wikistruct import: no inputs\n\n${HELP}`);
    return 2;
  }
  const missing = parsed.positionals.filter((p) => !existsSync(p));
  if (missing.length > 0) {
    process.stderr.write(`wikistruct import: no such file or directory: ${missing.join(', ')}\n`);
    return 2;
  }
  const command: ImportCommand = {
    action: 'import',
    // Absolute: a server running the import has its own working directory.
    inputs: parsed.positionals.map((p) => resolve(p)),
    jobs: options.data.jobs ?? Math.max(1, availableParallelism() - 1),
    ...(options.data.project === undefined ? {} : { project: options.data.project }),
  };
  const started = Date.now();
  let summary: ImportSummary;
  let via = '';
  let storage;
  try {
    storage = await openStorage({
      dataDir: options.data.data ?? defaultDataDir(),
      databaseUrl: process.env['DATABASE_URL'] || undefined,
      command: 'wikistruct import',
    });
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const socket = error.holder.admin_socket;
    if (socket === null || socket === undefined) {
      process.stderr.write(`wikistruct import: ${error.message}\n`);
      return 1;
    }
    try {
      const result = await sendAdminCommand(socket, command, ImportResultSchema, 0);
      if (!result.ok || result.summary === undefined) {
        for (const line of result.lines) process.stderr.write(`wikistruct import: ${line}\n`);
        return 1;
      }
      summary = result.summary;
      via = ` through the server (pid ${error.holder.pid}${error.holder.url === null ? '' : `, ${error.holder.url}`})`;
    } catch (cause) {
      process.stderr.write(`wikistruct import: ${error.message} (its admin socket failed: ${(cause as Error).message})\n`);
      return 1;
    }
    return report(summary, started, via);
  }
  try {
    summary = await runImportCommand(storage.db, systemClock, command);
  } finally {
    await storage.db.close();
  }
  return report(summary, started, via);
}

function report(summary: ImportSummary, started: number, via: string): number {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  for (const f of summary.failures) process.stderr.write(`${f.source}:${f.position}: ${f.message}\n`);
  if (summary.failed > summary.failures.length) process.stderr.write(`… and ${summary.failed - summary.failures.length} more failures\n`);
  process.stdout.write(
    `imported ${summary.records} records${via} in ${seconds} s: ${summary.inserted} new, ${summary.replaced} replaced by a newer revision, ` +
      `${summary.keptNewer} already stored at this or a newer revision, ${summary.skipped} skipped (not articles), ${summary.failed} failed\n`,
  );
  return summary.failed > 0 ? 1 : 0;
}
