/**
 * Where snapshots live and how they are named. In the snapshots directory (`<data>/snapshots` by
 * default), structured snapshots at the top and regular ones (the article envelopes) in
 * `articles/`, each kind laid out alike:
 *
 *   enwiki_namespace_0.json                   the sidecar: the snapshot's info, and which file it is
 *   enwiki_namespace_0-<version>.tar.gz       the file the sidecar names (version: a hash of its bytes)
 *   .partial/enwiki_namespace_0.tar.gz        a build in progress, with .checkpoint.json and .lock
 *   articles/enwiki_namespace_0.json          the regular snapshot of the same project and namespace
 *
 * The sidecar is the one pointer: a build writes the new file under its own name, then replaces
 * the sidecar atomically (temporary name, fsync, rename), then deletes the old file. A reader
 * reads the sidecar and opens the file it names, so it sees the old snapshot or the new one,
 * never a mix, and a crash at any point leaves the old one served.
 */
import { randomBytes } from 'node:crypto';
import { open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { safeJson } from '../safe-json.js';

/** `<project>_namespace_<number>`, as Enterprise names snapshots. */
const IDENTIFIER = /^([a-z][a-z0-9_]*)_namespace_(\d{1,9})$/;

export function snapshotIdentifier(project: string, namespace: number): string {
  return `${project}_namespace_${namespace}`;
}

export function parseSnapshotIdentifier(identifier: string): { project: string; namespace: number } | undefined {
  const match = IDENTIFIER.exec(identifier);
  return match === null ? undefined : { project: match[1]!, namespace: Number(match[2]) };
}

/** The snapshots directory: `$WIKISTRUCT_SNAPSHOTS_DIR`, else `<data>/snapshots`. */
export function snapshotsDir(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env['WIKISTRUCT_SNAPSHOTS_DIR'];
  return resolve(configured === undefined || configured === '' ? join(dataDir, 'snapshots') : configured);
}

/**
 * The two kinds the Enterprise API offers for a project and namespace, under one identifier:
 * `structured` (/v2/snapshots/structured-contents: Article JSON) and `articles` (/v2/snapshots:
 * the article envelopes, metadata and `article_body` as stored).
 */
export const SNAPSHOT_KINDS = ['structured', 'articles'] as const;
export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];

/** The directory of one kind inside the snapshots directory (structured ones at its top, where they always were). */
export function kindDir(dir: string, kind: SnapshotKind): string {
  return kind === 'structured' ? dir : join(dir, 'articles');
}

/**
 * A snapshot's size as the Enterprise API writes it: megabytes (10^6 bytes) to three decimals,
 * unit "MB" (its snapshot service formats the download's length with `%.3f` of bytes / 1e6). The
 * exact length is the download's Content-Length.
 */
export function sizeOf(bytes: number): { value: number; unit_text: 'MB' } {
  return { value: Number((bytes / 1e6).toFixed(3)), unit_text: 'MB' };
}

/** A sidecar written before sizes were in MB (`{value: <bytes>, unit_text: "B"}`), read as a current one. */
function upgradeSidecar(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const old = value as { bytes?: unknown; size?: { value?: unknown; unit_text?: unknown } };
  if (old.bytes !== undefined || old.size?.unit_text !== 'B' || typeof old.size.value !== 'number') return value;
  return { ...old, bytes: old.size.value, size: sizeOf(old.size.value) };
}

const SidecarFields = z.object({
  identifier: z.string(),
  version: z.string(),
  date_modified: z.string(),
  is_part_of: z.object({ identifier: z.string() }),
  in_language: z.object({ identifier: z.string() }).optional(),
  namespace: z.object({ identifier: z.number().int() }),
  size: z.object({ value: z.number().nonnegative(), unit_text: z.literal('MB') }),
  /** The file's exact length (its Content-Length). */
  bytes: z.number().int().nonnegative(),
  /** The file in the snapshots directory, e.g. `enwiki_namespace_0-<version>.tar.gz`. */
  file: z.string().regex(/^[a-z0-9_]+-[0-9a-f]+\.tar\.gz$/),
  articles: z.number().int().nonnegative(),
  /**
   * Where each NDJSON entry's gzip member ends in the file, in order (the file's last member, the
   * tar end-of-archive blocks, comes after the last one): the places the file can be cut into
   * chunks that are archives of their own. Absent in a sidecar of a build before chunks: its one
   * chunk is the whole file.
   */
  entry_ends: z.array(z.number().int().positive()).optional(),
  /** What wrote the lines: the engine version (structured), or the envelope format (articles). */
  engine_version: z.string(),
});
export const SidecarSchema = z.preprocess(upgradeSidecar, SidecarFields);
export type Sidecar = z.infer<typeof SidecarFields>;

export function sidecarPath(dir: string, identifier: string): string {
  return join(dir, `${identifier}.json`);
}

export function partialDir(dir: string): string {
  return join(dir, '.partial');
}

/** The sidecar of a snapshot, or undefined when there is none (never built, or unreadable). */
export async function readSidecar(dir: string, identifier: string): Promise<Sidecar | undefined> {
  let text: string;
  try {
    text = await readFile(sidecarPath(dir, identifier), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = SidecarSchema.safeParse(safeJson(text));
  return parsed.success && parsed.data.identifier === identifier ? parsed.data : undefined;
}

/** Every built snapshot, by identifier. */
export async function listSidecars(dir: string): Promise<Sidecar[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const identifiers = names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length)).filter((id) => parseSnapshotIdentifier(id) !== undefined);
  const sidecars = await Promise.all(identifiers.sort().map((id) => readSidecar(dir, id)));
  return sidecars.filter((s): s is Sidecar => s !== undefined);
}

/** Writes `text` to `path` so that a crash leaves the old content or the new, never a part: temporary file, fsync, rename. */
export async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}
