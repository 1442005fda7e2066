/**
 * Where structured snapshots live and how they are named. In the snapshots directory
 * (`<data>/snapshots` by default):
 *
 *   enwiki_namespace_0.json                   the sidecar: the snapshot's info, and which file it is
 *   enwiki_namespace_0-<version>.tar.gz       the file the sidecar names (version: a hash of its bytes)
 *   .partial/enwiki_namespace_0.tar.gz        a build in progress, with .checkpoint.json and .lock
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

export const SidecarSchema = z.object({
  identifier: z.string(),
  version: z.string(),
  date_modified: z.string(),
  is_part_of: z.object({ identifier: z.string() }),
  in_language: z.object({ identifier: z.string() }).optional(),
  namespace: z.object({ identifier: z.number().int() }),
  size: z.object({ value: z.number().int().nonnegative(), unit_text: z.literal('B') }),
  /** The file in the snapshots directory, e.g. `enwiki_namespace_0-<version>.tar.gz`. */
  file: z.string().regex(/^[a-z0-9_]+-[0-9a-f]+\.tar\.gz$/),
  articles: z.number().int().nonnegative(),
  engine_version: z.string(),
});
export type Sidecar = z.infer<typeof SidecarSchema>;

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
