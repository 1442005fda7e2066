/**
 * Builds one snapshot: every stored article of a project and namespace, as Article JSON lines
 * (structured) or as the Enterprise article envelopes with `article_body` (articles, the regular
 * snapshot: article-reply.ts, what /v2/articles answers), in a `.tar.gz` written by the snapshot
 * sink the batch converter uses too
 * (src/io/sinks/snapshot.ts), so the file holds the very bytes
 * `wikistruct convert --format snapshot -o <identifier>.tar.gz` writes for those articles in that
 * order (title byte order): NDJSON entries `<identifier>_<n>.ndjson` of up to `chunkBytes` each
 * (one entry for a project under 32 MiB of JSON), each entry its own gzip member, so memory holds
 * at most one entry.
 *
 * Resumable: after each complete entry the file is synced and a checkpoint written atomically
 * (bytes, entries, the last title written). A build that finds a checkpoint for the same engine
 * version and entry size continues after that title, truncating what the crashed build wrote
 * past it, so a crash costs at most one entry of work; otherwise it starts over. Articles
 * stored meanwhile before that title wait for the next build. Until a build completes, the
 * previous snapshot stays the one served (layout.ts).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { SourceRecord } from '../../io/record.js';
import { SnapshotSink } from '../../io/sinks/snapshot.js';
import type { Clock } from '../clock.js';
import type { Db } from '../storage/db.js';
import type { PageLinks } from '../../index.js';
import { enterpriseArticle } from '../content/enterprise/article-reply.js';
import type { SourceRow } from '../content/store.js';
import { acquireBuildLock } from './build-lock.js';
import { kindDir, partialDir, sidecarPath, sizeOf, snapshotIdentifier, writeAtomically, type Sidecar, type SnapshotKind } from './layout.js';
import { articlePage, envelopePage, type SnapshotTarget } from './source.js';

/**
 * The format of a regular snapshot's lines: part of its checkpoint (a build of another format
 * starts over) and of its sidecar. Bump it when enterpriseArticle writes other bytes.
 */
export const ARTICLES_FORMAT = 'enterprise-article-2';

/** The batch converter's default entry size (`convert --chunk-size`), so both write the same bytes. */
export const DEFAULT_CHUNK_BYTES = 32 * 1024 * 1024;

export interface BuildOptions {
  db: Db;
  clock: Clock;
  /** The snapshots directory (each kind in its own place inside: layout.ts). */
  dir: string;
  /** Default structured. */
  kind?: SnapshotKind;
  engineVersion: string;
  /** The Article JSON of a stored row not yet parsed for this engine version (parses and caches it). */
  articleJson(row: { project: string; title: string; revision: number; language: string | null }): Promise<string>;
  /** Regular snapshots: the categories and templates of a row whose metadata does not list them (ContentService.pageLinks). */
  pageLinks?(row: SourceRow): Promise<PageLinks | undefined>;
  chunkBytes?: number;
  /** Articles read per query: bounds memory (a page of Article JSON) and how long one query holds the database. */
  pageSize?: number;
  /** Stops the build before its next page, as a crash would (the next build resumes from the checkpoint). */
  signal?: AbortSignal;
  /** Called after each checkpoint; a test stops the build here to play a crash. */
  afterCheckpoint?: (checkpoint: Checkpoint) => void | Promise<void>;
}

export interface BuildResult {
  kind: SnapshotKind;
  sidecar: Sidecar;
  /** Articles a crashed build had already written, which this one kept. */
  resumedAfter: number;
}

const CheckpointSchema = z.object({
  engine_version: z.string(),
  chunk_bytes: z.number().int().positive(),
  bytes: z.number().int().nonnegative(),
  chunks: z.number().int().nonnegative(),
  after: z.string(),
  articles: z.number().int().nonnegative(),
  /** The sidecar's entry_ends so far (a checkpoint without them, of a build before chunks, is started over). */
  entry_ends: z.array(z.number().int().positive()),
});
export type Checkpoint = z.infer<typeof CheckpointSchema>;

const EMPTY = new Uint8Array(0);

export async function buildSnapshot(target: SnapshotTarget, options: BuildOptions): Promise<BuildResult> {
  const identifier = snapshotIdentifier(target.project, target.namespace);
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const kind = options.kind ?? 'structured';
  const dir = kindDir(options.dir, kind);
  // What decides the bytes of a line: the engine (structured) or the envelope writer (articles).
  // The envelope writer's categories and templates may be read from the HTML, by the engine.
  const format = kind === 'structured' ? options.engineVersion : `${ARTICLES_FORMAT}+${options.engineVersion}`;
  const pageSize = options.pageSize ?? 25;
  const nextPage = async (after: string | null): Promise<{ title: string; text: string; row: { project: string } }[]> => {
    if (kind === 'articles') {
      const rows = await envelopePage(options.db, target, after, pageSize);
      const links = await Promise.all(rows.map((row) => options.pageLinks?.(row)));
      return rows.map((row, i) => ({ title: row.title, text: JSON.stringify(enterpriseArticle(row, links[i])), row }));
    }
    const page = await articlePage(options.db, target, after, pageSize, options.engineVersion);
    const texts = await Promise.all(page.map((row) => (row.article === null ? options.articleJson(row) : row.article)));
    return page.map((row, i) => ({ title: row.title, text: texts[i]!, row }));
  };
  const building = partialDir(dir);
  await mkdir(building, { recursive: true });
  const lock = acquireBuildLock(join(building, `${identifier}.lock`), identifier);
  try {
    // The partial file is named like the final download so the sink names its entries after it.
    const partial = join(building, `${identifier}.tar.gz`);
    const checkpointFile = join(building, `${identifier}.checkpoint.json`);
    const resume = await usableCheckpoint(checkpointFile, partial, format, chunkBytes);
    const sink = await SnapshotSink.open(partial, chunkBytes, resume === undefined ? undefined : { bytes: resume.bytes, chunks: resume.chunks });
    let after = resume?.after ?? null;
    let articles = resume?.articles ?? 0;
    const entryEnds = [...(resume?.entry_ends ?? [])];
    let finished = false;
    try {
      for (;;) {
        options.signal?.throwIfAborted();
        const page = await nextPage(after);
        if (page.length === 0) break;
        for (const line of page) {
          await sink.write(Buffer.from(line.text), recordOf(line.row, articles + 1), line.title);
          articles += 1;
          after = line.title;
          // An entry just ended: everything up to this title is in the file, so a crash can resume after it.
          if (sink.canCommit()) {
            const state = await sink.commit();
            entryEnds.push(state.bytes);
            const checkpoint: Checkpoint = { engine_version: format, chunk_bytes: chunkBytes, bytes: state.bytes, chunks: state.chunks, after, articles, entry_ends: entryEnds };
            await writeAtomically(checkpointFile, JSON.stringify(checkpoint));
            await options.afterCheckpoint?.(checkpoint);
          }
        }
      }
      finished = true;
    } finally {
      await sink.close(finished);
    }
    // The last entry, ended by close (a project under one entry's size has only this one).
    if (sink.entriesEndOffset > (entryEnds.at(-1) ?? 0)) entryEnds.push(sink.entriesEndOffset);
    const sidecar = await publish({ dir, clock: options.clock, format }, target, identifier, partial, articles, entryEnds);
    await unlink(checkpointFile).catch(() => {});
    return { kind, sidecar, resumedAfter: resume?.articles ?? 0 };
  } finally {
    lock.release();
  }
}

/** The checkpoint of a crashed build this one can continue, or undefined (start over). */
async function usableCheckpoint(path: string, partial: string, format: string, chunkBytes: number): Promise<Checkpoint | undefined> {
  let parsed: Checkpoint;
  try {
    parsed = CheckpointSchema.parse(JSON.parse(await readFile(path, 'utf8')));
  } catch {
    return undefined; // none, or unreadable: start over
  }
  // Another engine writes other bytes, another entry size cuts elsewhere: what was written cannot be continued.
  if (parsed.engine_version !== format || parsed.chunk_bytes !== chunkBytes) return undefined;
  const size = await stat(partial).then((s) => s.size, () => -1);
  return size >= parsed.bytes ? parsed : undefined;
}

/** Moves the finished file to its versioned name, points the sidecar at it, deletes older files. */
async function publish(options: { dir: string; clock: Clock; format: string }, target: SnapshotTarget, identifier: string, partial: string, articles: number, entryEnds: number[]): Promise<Sidecar> {
  const handle = await open(partial, 'r');
  try {
    await handle.sync(); // on disk before the sidecar can name it
  } finally {
    await handle.close();
  }
  const digest = createHash('sha256');
  await pipeline(createReadStream(partial), digest);
  const version = digest.digest('hex').slice(0, 32);
  const file = `${identifier}-${version}.tar.gz`;
  const { size } = await stat(partial);
  await rename(partial, join(options.dir, file));
  const sidecar: Sidecar = {
    identifier,
    version,
    date_modified: options.clock.now().toISOString(),
    is_part_of: { identifier: target.project },
    ...(target.language === null ? {} : { in_language: { identifier: target.language } }),
    namespace: { identifier: target.namespace },
    size: sizeOf(size),
    bytes: size,
    file,
    articles,
    entry_ends: entryEnds,
    engine_version: options.format,
  };
  await writeAtomically(sidecarPath(options.dir, identifier), `${JSON.stringify(sidecar, null, 2)}\n`);
  // Older files of this snapshot (the previous one, or one a crash left unnamed). A download of
  // the previous file that is under way keeps reading it: an open file outlives its name.
  for (const name of await readdir(options.dir)) {
    if (name.startsWith(`${identifier}-`) && name.endsWith('.tar.gz') && name !== file) await unlink(join(options.dir, name)).catch(() => {});
  }
  return sidecar;
}

/** What the sink is told about each article (it uses none of it; the batch's record type asks for it). */
function recordOf(row: { project: string }, position: number): SourceRecord {
  return { source: `store:${row.project}`, position, wholeFile: false, payload: { kind: 'json', bytes: EMPTY } };
}
