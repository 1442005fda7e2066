/**
 * What the admin socket (admin-socket.ts) carries: the `wikistruct user` actions and
 * `wikistruct import`, as data, so the same code runs them on the database directly or, while a
 * server holds the embedded database, inside that server.
 */
import { z } from 'zod';
import { AccountCommandSchema, runAccountCommand, type AccountCommandResult } from './auth/account-commands.js';
import type { Clock } from './clock.js';
import { importInputs, type ImportSummary } from './content/importer.js';
import { createEngineClient, type EngineClientOptions } from './engine-client.js';
import { readSiteinfoText } from '../io/sources/siteinfo.js';
import { ArticleStore } from './content/store.js';
import { runSnapshotBuildCommand, SnapshotBuildCommandSchema, type SnapshotBuildResult } from './snapshots/command.js';
import type { Db } from './storage/db.js';

export const ImportCommandSchema = z.strictObject({
  action: z.literal('import'),
  /** Absolute paths: the server's working directory is not the client's. */
  inputs: z.array(z.string().min(1)).min(1),
  project: z.string().optional(),
  jobs: z.number().int().min(1).max(64),
  /** Absolute path of a siteinfo file (dump <siteinfo> or API XML): the wiki of wikitext records, as `convert --siteinfo`. */
  siteinfo: z.string().min(1).optional(),
});
export type ImportCommand = z.infer<typeof ImportCommandSchema>;

export const AdminCommandSchema = z.union([AccountCommandSchema, ImportCommandSchema, SnapshotBuildCommandSchema]);
export type AdminCommand = z.infer<typeof AdminCommandSchema>;

const ImportFailureSchema = z.object({ source: z.string(), position: z.number(), message: z.string() });
export const ImportSummarySchema = z.object({
  records: z.number(),
  inserted: z.number(),
  replaced: z.number(),
  keptNewer: z.number(),
  skipped: z.number(),
  failed: z.number(),
  failures: z.array(ImportFailureSchema),
});
export const ImportResultSchema = z.object({ ok: z.boolean(), summary: ImportSummarySchema.optional(), lines: z.array(z.string()) });
export type ImportResult = z.infer<typeof ImportResultSchema>;

/**
 * The engine an import parses with: its threads, and the wiki of `--siteinfo FILE` (read here,
 * where the import runs — the server, when it holds the database) for wikitext records.
 */
export function importEngineOptions(command: ImportCommand): EngineClientOptions {
  return { threads: command.jobs, siteinfo: command.siteinfo === undefined ? undefined : readSiteinfoText(command.siteinfo) };
}

export async function runImportCommand(db: Db, clock: Clock, command: ImportCommand): Promise<ImportSummary> {
  const engine = createEngineClient(importEngineOptions(command));
  try {
    return await importInputs(command.inputs, {
      store: new ArticleStore(db, clock),
      engine,
      project: command.project,
      concurrency: command.jobs * 2,
    });
  } finally {
    await engine.close();
  }
}

/** How a server runs some commands its own way. */
export interface AdminHooks {
  /** A snapshot build, queued behind the server's own builds (snapshots/scheduler.ts). */
  snapshotBuild?: (run: () => Promise<SnapshotBuildResult>) => Promise<SnapshotBuildResult>;
}

/** Runs any admin command; the reply is what the client prints. */
export async function runAdminCommand(db: Db, clock: Clock, command: AdminCommand, hooks: AdminHooks = {}): Promise<AccountCommandResult | ImportResult | SnapshotBuildResult> {
  if (command.action === 'snapshot-build') {
    const run = () => runSnapshotBuildCommand(db, clock, command);
    return hooks.snapshotBuild === undefined ? run() : hooks.snapshotBuild(run);
  }
  if (command.action === 'import') {
    const summary = await runImportCommand(db, clock, command);
    return { ok: true, summary, lines: [] };
  }
  return runAccountCommand(db, clock, command);
}
