/**
 * `wikistruct import <inputs...>`: loads articles into the service's article store (the same
 * database as the accounts). With the embedded database it refuses while a server holds the data
 * directory, like `wikistruct user`; with DATABASE_URL it works beside running servers.
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { systemClock } from '../service/clock.js';
import { importInputs } from '../service/content/importer.js';
import { createArticleParser } from '../service/content/parser.js';
import { ArticleStore } from '../service/content/store.js';
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

A newer revision replaces the stored one; an older or equal one is skipped.
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
  let storage;
  try {
    storage = await openStorage({
      dataDir: options.data.data ?? defaultDataDir(),
      databaseUrl: process.env['DATABASE_URL'] || undefined,
      command: 'wikistruct import',
    });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      process.stderr.write(`wikistruct import: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const jobs = options.data.jobs ?? Math.max(1, availableParallelism() - 1);
  const parser = await createArticleParser(jobs);
  try {
    const started = Date.now();
    const summary = await importInputs(parsed.positionals, {
      store: new ArticleStore(storage.db, systemClock),
      parser,
      project: options.data.project,
      concurrency: jobs * 2,
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    for (const f of summary.failures) process.stderr.write(`${f.source}:${f.position}: ${f.message}\n`);
    process.stdout.write(
      `imported ${summary.records} records in ${seconds} s: ${summary.inserted} new, ${summary.replaced} replaced by a newer revision, ` +
        `${summary.keptNewer} already stored at this or a newer revision, ${summary.skipped} skipped (not articles), ${summary.failed} failed\n`,
    );
    return summary.failed > 0 ? 1 : 0;
  } finally {
    await parser.close();
    await storage.db.close();
  }
}
