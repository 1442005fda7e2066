/**
 * Builds the snapshots of every stored project (or of the projects named), structured and regular,
 * one after the other: what `wikistruct snapshot build` runs, in its own process or inside the
 * server through the admin socket, and what the server's schedule runs (scheduler.ts). It never
 * runs on a request's path: requests only read what a finished build published.
 */
import { languageOfProject } from '../content/enterprise/metadata.js';
import { ENGINE_VERSION } from '../content/engine-version.js';
import type { ContentService } from '../content/service.js';
import type { Clock } from '../clock.js';
import type { Db } from '../storage/db.js';
import { buildSnapshot, type BuildResult } from './builder.js';
import { SNAPSHOT_KINDS, type SnapshotKind } from './layout.js';
import { snapshotTargets } from './source.js';

export interface BuildAllOptions {
  db: Db;
  clock: Clock;
  dir: string;
  /** Parses what is not parsed yet for this engine version (and caches it). */
  service: Pick<ContentService, 'articleJson' | 'pageLinks'>;
  /** Only these projects; undefined: every stored project. */
  projects?: readonly string[] | undefined;
  chunkBytes?: number;
  /** Default both: each project's structured snapshot, then its regular one. */
  kinds?: readonly SnapshotKind[];
  /** Told each snapshot as it is done. */
  onBuilt?: (result: BuildResult, seconds: number) => void;
  /** Called between snapshots (a build holding a lease renews it here). */
  between?: () => Promise<void>;
  /** Stops the build at its next page (the server is shutting down). */
  signal?: AbortSignal;
}

export interface BuildAllResult {
  built: BuildResult[];
  /** Projects asked for that have no stored article: nothing to build. */
  missing: string[];
}

export async function buildSnapshots(options: BuildAllOptions): Promise<BuildAllResult> {
  const targets = await snapshotTargets(options.db, options.projects);
  const missing = (options.projects ?? []).filter((p) => !targets.some((t) => t.project === p));
  const built: BuildResult[] = [];
  for (const target of targets) {
    for (const kind of options.kinds ?? SNAPSHOT_KINDS) {
      await options.between?.();
      const started = performance.now();
      const result = await buildSnapshot(
        { ...target, language: languageOfProject(target.project) ?? target.language },
        {
          db: options.db,
          clock: options.clock,
          dir: options.dir,
          kind,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          engineVersion: ENGINE_VERSION,
          articleJson: (row) => options.service.articleJson(row),
          pageLinks: (row) => options.service.pageLinks(row),
          ...(options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes }),
        },
      );
      built.push(result);
      options.onBuilt?.(result, (performance.now() - started) / 1000);
    }
  }
  return { built, missing };
}

/** One line per snapshot, as the command prints it. */
export function describeBuild(result: BuildResult, seconds: number): string {
  const { sidecar } = result;
  const resumed = result.resumedAfter > 0 ? `, resumed after ${result.resumedAfter} articles` : '';
  const kind = result.kind === 'articles' ? ' (articles)' : '';
  return `built ${sidecar.identifier}${kind}: ${sidecar.articles} articles, ${sidecar.bytes} bytes, version ${sidecar.version} in ${seconds.toFixed(1)} s${resumed}`;
}
