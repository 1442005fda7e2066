/**
 * `wikistruct snapshot build` (structured and regular snapshots) as data (admin-commands.ts): the same code builds in the command's
 * own process or, while a server holds the embedded database, inside that server through its
 * admin socket. The reply is the lines the command prints.
 */
import { z } from 'zod';
import type { Clock } from '../clock.js';
import { createEngineClient } from '../engine-client.js';
import { ContentService } from '../content/service.js';
import { ArticleStore } from '../content/store.js';
import { createMetrics } from '../metrics.js';
import type { Db } from '../storage/db.js';
import { buildSnapshots, describeBuild } from './build-all.js';
import { BuildLeaseBusyError, withBuildLease } from './build-lease.js';
import { SnapshotBusyError } from './build-lock.js';

export const SnapshotBuildCommandSchema = z.strictObject({
  action: z.literal('snapshot-build'),
  /** Absolute: the server's working directory is not the client's. */
  dir: z.string().min(1),
  projects: z.array(z.string().regex(/^[a-z][a-z0-9_]*$/)).optional(),
  jobs: z.number().int().min(1).max(64),
  chunkBytes: z.number().int().positive().optional(),
});
export type SnapshotBuildCommand = z.infer<typeof SnapshotBuildCommandSchema>;

export const SnapshotBuildResultSchema = z.object({ ok: z.boolean(), lines: z.array(z.string()) });
export type SnapshotBuildResult = z.infer<typeof SnapshotBuildResultSchema>;

export async function runSnapshotBuildCommand(db: Db, clock: Clock, command: SnapshotBuildCommand): Promise<SnapshotBuildResult> {
  const engine = createEngineClient({ threads: command.jobs });
  // Its own service: no upstream fetching, no lookup reuse; only the parse-and-cache path is used.
  const service = new ContentService({
    store: new ArticleStore(db, clock),
    clock,
    lookupMaxAgeMs: 0,
    engine,
    metrics: createMetrics({ defaultMetrics: false }),
    memoryCacheBytes: 0,
  });
  const lines: string[] = [];
  try {
    // One build at a time across processes: a server's schedule or another command may be building.
    const result = await withBuildLease(db, clock, (renew) =>
      buildSnapshots({
        db,
        clock,
        dir: command.dir,
        service,
        projects: command.projects,
        between: renew,
        ...(command.chunkBytes === undefined ? {} : { chunkBytes: command.chunkBytes }),
        onBuilt: (built, seconds) => lines.push(describeBuild(built, seconds)),
      }),
    );
    for (const project of result.missing) lines.push(`no stored articles of ${project}: nothing to build`);
    if (result.built.length === 0 && result.missing.length === 0) lines.push('the store holds no articles: nothing to build');
    return { ok: result.missing.length === 0, lines };
  } catch (error) {
    if (error instanceof SnapshotBusyError || error instanceof BuildLeaseBusyError) return { ok: false, lines: [...lines, error.message] };
    throw error;
  } finally {
    await engine.close();
  }
}
