/**
 * `wikistruct snapshot build [project...]`: builds the structured snapshots the service offers
 * at /v2/snapshots/structured-contents, one per stored project and namespace (src/service/snapshots).
 * While a server holds the embedded database, the build runs inside that server through its
 * admin socket (as `wikistruct import` does) and the server serves the new files as soon as each
 * is done; with DATABASE_URL it runs here, beside any servers.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { sendAdminCommand } from '../service/admin-socket.js';
import { systemClock } from '../service/clock.js';
import { defaultDataDir } from '../service/server.js';
import { runSnapshotBuildCommand, SnapshotBuildResultSchema, type SnapshotBuildCommand, type SnapshotBuildResult } from '../service/snapshots/command.js';
import { snapshotsDir } from '../service/snapshots/layout.js';
import { DataDirLockedError } from '../service/storage/lock.js';
import { openStorage } from '../service/storage/open.js';

const HELP = `usage: wikistruct snapshot build [project...] [--data DIR] [--dir DIR] [--jobs N]

  project      project codes to build (e.g. enwiki frwiki); default: every project in the store
  --data       data directory of the embedded database (default $WIKISTRUCT_DATA or ./data)
  --dir        snapshots directory (default $WIKISTRUCT_SNAPSHOTS_DIR or <data>/snapshots; the
               server serves the same directory)
  --jobs       parser threads for articles not yet parsed (default: cores - 1, at least 1)

environment:
  DATABASE_URL   use this PostgreSQL server instead of the embedded database

Each snapshot (<project>_namespace_<n>) is a .tar.gz of Article NDJSON, the bytes
\`wikistruct convert --format snapshot\` writes for the same articles. It is published only when
complete: until then the previous one is served. A build interrupted by a crash continues from
its last checkpoint the next time.
`;

const OptionsSchema = z.object({
  data: z.string().min(1).optional(),
  dir: z.string().min(1).optional(),
  jobs: z.coerce.number().int('--jobs must be an integer').min(1, '--jobs must be at least 1').max(64, '--jobs must be at most 64').optional(),
  help: z.boolean(),
});
const ProjectSchema = z.string().regex(/^[a-z][a-z0-9_]*$/);

export async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        data: { type: 'string' },
        dir: { type: 'string' },
        jobs: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`wikistruct snapshot: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  const options = OptionsSchema.safeParse(parsed.values);
  if (!options.success) {
    process.stderr.write(`wikistruct snapshot: ${options.error.issues[0]?.message ?? 'invalid options'}\n`);
    return 2;
  }
  const [verb, ...projects] = parsed.positionals;
  if (options.data.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (verb !== 'build') {
    process.stderr.write(`wikistruct snapshot: ${verb === undefined ? 'no action given' : `unknown action "${verb}"`}; expected "build"\n\n${HELP}`);
    return 2;
  }
  const bad = projects.find((p) => !ProjectSchema.safeParse(p).success);
  if (bad !== undefined) {
    process.stderr.write(`wikistruct snapshot: "${bad}" is not a project code like "enwiki"\n`);
    return 2;
  }
  const dataDir = options.data.data ?? defaultDataDir();
  const command: SnapshotBuildCommand = {
    action: 'snapshot-build',
    // Absolute: a server running the build has its own working directory.
    dir: options.data.dir === undefined ? snapshotsDir(dataDir) : resolve(options.data.dir),
    jobs: options.data.jobs ?? Math.max(1, availableParallelism() - 1),
    ...(projects.length === 0 ? {} : { projects }),
  };
  let storage;
  try {
    storage = await openStorage({ dataDir, databaseUrl: process.env['DATABASE_URL'] || undefined, command: 'wikistruct snapshot build' });
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const socket = error.holder.admin_socket;
    if (socket === null || socket === undefined) {
      process.stderr.write(`wikistruct snapshot: ${error.message}\n`);
      return 1;
    }
    try {
      // No timeout: a large project takes long, and the socket fails at once if the server goes away.
      const result = await sendAdminCommand(socket, command, SnapshotBuildResultSchema, 0);
      return report(result, ` (inside the server, pid ${error.holder.pid})`);
    } catch (cause) {
      process.stderr.write(`wikistruct snapshot: ${error.message} (its admin socket failed: ${(cause as Error).message})\n`);
      return 1;
    }
  }
  try {
    return report(await runSnapshotBuildCommand(storage.db, systemClock, command), '');
  } finally {
    await storage.db.close();
  }
}

function report(result: SnapshotBuildResult, via: string): number {
  for (const line of result.lines) {
    if (line.startsWith('built ')) process.stdout.write(`${line}${via}\n`);
    else (result.ok ? process.stdout : process.stderr).write(`${line}\n`);
  }
  return result.ok ? 0 : 1;
}
