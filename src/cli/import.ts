/**
 * `wikistruct import <inputs...>`: loads articles into the service's article store (the same
 * database as the accounts). While a server holds the embedded database, the import runs inside
 * that server through its admin socket (as `wikistruct user` does), and what it loads is served
 * at once; with DATABASE_URL it works beside running servers directly.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { ImportResultSchema, runImportCommand, type ImportCommand } from '../service/admin-commands.js';
import { systemClock } from '../service/clock.js';
import type { ImportSummary } from '../service/content/importer.js';
import { defaultDataDir } from '../service/server.js';
import { pathExists } from '../io/sources/walk.js';
import { checkSiteinfoFile } from '../io/sources/siteinfo.js';
import { runHereOrInServer } from './in-server.js';
import { defaultParserJobs, JobsOptionSchema, PROJECT_CODE, readOptions } from './run.js';

const HELP = `usage: wikistruct import <inputs...> [--project CODE] [--siteinfo FILE] [--data DIR] [--jobs N]
                         [--allow-shared-data-dir]

  inputs       HTML files, Enterprise envelopes (.json), NDJSON(.gz), snapshot .tar.gz, XML dumps,
               .wikitext pages (titled after the file), or directories of them (recursively);
               symbolic links to files and directories
               are followed, and a file reached through several paths is read once
  --project    project code of every record (e.g. enwiki); needed for bare HTML without metadata
  --siteinfo   the wiki of wikitext records: a dump's <siteinfo> block or MediaWiki API siteinfo
               XML (namespaces, aliases, magic words), as for \`wikistruct convert\`
  --data       data directory of the embedded database (default $WIKISTRUCT_DATA or ./data)
  --allow-shared-data-dir
               open the embedded database even though other accounts can reach the data
               directory (it must be 0700 and yours; docs/security.md)
  --jobs       parser threads (default: cores - 1, at least 1)

environment:
  DATABASE_URL   use this PostgreSQL server instead of the embedded database

A dangling link, a link loop, an empty input or directory, and an input cut short (a dump
ending inside a <page> or without </mediawiki>, a cut .gz/.bz2/.tar.gz) are each reported as a
failed input; the others are still imported, and the exit code is 1.

A newer revision replaces the stored one; an older or equal one is skipped. While
\`wikistruct serve\` holds the embedded database, the import runs inside the server (through its
admin socket in the data directory) and the articles are served as soon as they are stored.
`;

const OptionsSchema = z.object({
  project: z.string().regex(PROJECT_CODE, '--project must be a project code like "enwiki"').optional(),
  siteinfo: z.string().min(1, '--siteinfo needs a file').optional(),
  data: z.string().min(1).optional(),
  jobs: JobsOptionSchema,
  'allow-shared-data-dir': z.boolean(),
  help: z.boolean(),
});

export async function run(argv: string[]): Promise<number> {
  const parsed = readOptions('import', HELP, argv, {
    project: { type: 'string' },
    siteinfo: { type: 'string' },
    data: { type: 'string' },
    jobs: { type: 'string' },
    'allow-shared-data-dir': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  }, OptionsSchema);
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (parsed.positionals.length === 0) {
    process.stderr.write(`wikistruct import: no inputs\n\n${HELP}`);
    return 2;
  }
  // A dangling link exists: it is reported as a failed input with its target, not as a typo.
  const missing: string[] = [];
  for (const p of parsed.positionals) if (!(await pathExists(p))) missing.push(p);
  if (missing.length > 0) {
    process.stderr.write(`wikistruct import: no such file or directory: ${missing.join(', ')}\n`);
    return 2;
  }
  if (values.siteinfo !== undefined) {
    // Read once here too, so that a bad file is bad usage before anything is imported.
    try {
      await checkSiteinfoFile(values.siteinfo);
    } catch (error) {
      process.stderr.write(`wikistruct import: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
  }
  const command: ImportCommand = {
    action: 'import',
    // Absolute: a server running the import has its own working directory.
    inputs: parsed.positionals.map((p) => resolve(p)),
    jobs: values.jobs ?? defaultParserJobs(),
    ...(values.project === undefined ? {} : { project: values.project }),
    ...(values.siteinfo === undefined ? {} : { siteinfo: resolve(values.siteinfo) }),
  };
  const started = Date.now();
  const ran = await runHereOrInServer({
    dataDir: values.data ?? defaultDataDir(),
    name: 'wikistruct import',
    command,
    allowSharedDataDir: values['allow-shared-data-dir'],
    schema: ImportResultSchema,
    // No timeout: an import of a dump takes hours, and the socket fails at once if the server goes away.
    timeoutMs: 0,
    here: async (db) => ({ ok: true, lines: [], summary: await runImportCommand(db, systemClock, command) }),
  });
  if (ran.where === 'nowhere') {
    process.stderr.write(`wikistruct import: ${ran.message}\n`);
    return 1;
  }
  if (!ran.result.ok || ran.result.summary === undefined) {
    for (const line of ran.result.lines) process.stderr.write(`wikistruct import: ${line}\n`);
    return 1;
  }
  const via = ran.where === 'server' ? ` through the server (pid ${ran.holder.pid}${ran.holder.url === null ? '' : `, ${ran.holder.url}`})` : '';
  return report(ran.result.summary, started, via);
}

function report(summary: ImportSummary, started: number, via: string): number {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  // Position 0: the input itself could not be read (a dangling link, an empty directory).
  for (const f of summary.failures) process.stderr.write(`${f.source}${f.position === 0 ? '' : `:${f.position}`}: ${f.message}\n`);
  if (summary.failed > summary.failures.length) process.stderr.write(`… and ${summary.failed - summary.failures.length} more failures\n`);
  process.stdout.write(
    `imported ${summary.records} records${via} in ${seconds} s: ${summary.inserted} new, ${summary.replaced} replaced by a newer revision, ` +
      `${summary.keptNewer} already stored at this or a newer revision, ${summary.skipped} skipped (not articles), ${summary.failed} failed\n`,
  );
  return summary.failed > 0 ? 1 : 0;
}
