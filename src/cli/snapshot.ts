/**
 * `wikistruct snapshot build [project...]`: builds the structured snapshots the service offers
 * at /v2/snapshots/structured-contents, one per stored project and namespace (src/service/snapshots).
 * While a server holds the embedded database, the build runs inside that server through its
 * admin socket (as `wikistruct import` does) and the server serves the new files as soon as each
 * is done; with DATABASE_URL it runs here, beside any servers.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { systemClock } from '../service/clock.js';
import { defaultDataDir } from '../service/server.js';
import { runSnapshotBuildCommand, SnapshotBuildResultSchema, type SnapshotBuildCommand, type SnapshotBuildResult } from '../service/snapshots/command.js';
import { snapshotsDir } from '../service/snapshots/layout.js';
import { runHereOrInServer } from './in-server.js';
import { defaultParserJobs, JobsOptionSchema, PROJECT_CODE, readOptions } from './run.js';

const HELP = `usage: wikistruct snapshot build [project...] [--data DIR] [--dir DIR] [--jobs N]
                                 [--allow-shared-data-dir]

  project      project codes to build (e.g. enwiki frwiki); default: every project in the store
  --data       data directory of the embedded database (default $WIKISTRUCT_DATA or ./data)
  --allow-shared-data-dir
               open the embedded database even though other accounts can reach the data
               directory (it must be 0700 and yours; docs/security.md)
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
  jobs: JobsOptionSchema,
  'allow-shared-data-dir': z.boolean(),
  help: z.boolean(),
});

export async function run(argv: string[]): Promise<number> {
  const parsed = readOptions('snapshot', HELP, argv, {
    data: { type: 'string' },
    dir: { type: 'string' },
    jobs: { type: 'string' },
    'allow-shared-data-dir': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  }, OptionsSchema);
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  const [verb, ...projects] = parsed.positionals;
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (verb !== 'build') {
    process.stderr.write(`wikistruct snapshot: ${verb === undefined ? 'no action given' : `unknown action "${verb}"`}; expected "build"\n\n${HELP}`);
    return 2;
  }
  const bad = projects.find((p) => !PROJECT_CODE.test(p));
  if (bad !== undefined) {
    process.stderr.write(`wikistruct snapshot: "${bad}" is not a project code like "enwiki"\n`);
    return 2;
  }
  const dataDir = values.data ?? defaultDataDir();
  const command: SnapshotBuildCommand = {
    action: 'snapshot-build',
    // Absolute: a server running the build has its own working directory.
    dir: values.dir === undefined ? snapshotsDir(dataDir) : resolve(values.dir),
    jobs: values.jobs ?? defaultParserJobs(),
    ...(projects.length === 0 ? {} : { projects }),
  };
  const ran = await runHereOrInServer({
    dataDir,
    name: 'wikistruct snapshot build',
    command,
    allowSharedDataDir: values['allow-shared-data-dir'],
    schema: SnapshotBuildResultSchema,
    // No timeout: a large project takes long, and the socket fails at once if the server goes away.
    timeoutMs: 0,
    here: (db) => runSnapshotBuildCommand(db, systemClock, command),
  });
  if (ran.where === 'nowhere') {
    process.stderr.write(`wikistruct snapshot: ${ran.message}\n`);
    return 1;
  }
  return report(ran.result, ran.where === 'server' ? ` (inside the server, pid ${ran.holder.pid})` : '');
}

function report(result: SnapshotBuildResult, via: string): number {
  for (const line of result.lines) {
    if (line.startsWith('built ')) process.stdout.write(`${line}${via}\n`);
    else (result.ok ? process.stdout : process.stderr).write(`${line}\n`);
  }
  return result.ok ? 0 : 1;
}
