/**
 * A freshly initialised PGlite data directory, packed at build time (scripts/build-pglite-template.ts)
 * and unpacked on a first start instead of running initdb there.
 *
 * Why: PGlite runs initdb in a second, throw-away PGlite instance (its own 128 MB WebAssembly
 * memory, its own copy of the file-system bundle) and then copies that instance's files into the
 * real one: a first start on an empty data directory peaked at 910-960 MB RSS, more than a 512 MB
 * machine has, and about twice what a later start needs. Unpacking 2 MB of tar.gz is a stream.
 *
 * There are two, each initdb's output for this PGlite version with the build's migrations applied,
 * as a cluster that was shut down cleanly (a first start runs no crash recovery and finds the
 * relation cache files), without initdb's template databases nor the free space and visibility
 * maps (340 files, 25 MB of which 16 MB are the WAL segment's zeros; the build's comments say why):
 * - `template-<version>.tar.gz`: nothing more (`serve --no-samples`, `user add` before a first
 *   serve, in-memory databases);
 * - `template-samples-<version>.tar.gz`: also the sample articles' rows (content/samples.ts),
 *   what a first `serve` would insert. A first start unpacks it and inserts nothing: inserting the
 *   rows grew the serving process by about 25 MB that PGlite never gives back, and applying the
 *   migrations took 0.2 s of CPU.
 * Neither holds an account or a key: the administrator and the signing keys are made per data
 * directory after it is unpacked. Nothing in them is secret, so one template serves every
 * installation; each installation's cluster shares its `system_identifier`, which PostgreSQL uses
 * only to pair WAL with its cluster. The migrations still run after every open (migrate.ts): a
 * migration newer than the template (a source tree changed since its build) is applied then.
 *
 * The files are named after the PGlite version that wrote them: after an upgrade of PGlite without
 * a rebuild, no template matches and PGlite's own initdb runs, as before.
 */
import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { packageFile } from '../../package-files.js';

/** Entries larger than this are streamed to their file; smaller ones are written at once. */
const STREAMED_ENTRY_BYTES = 1024 * 1024;

/** Small files being written at once while an archive is unpacked. */
const MAX_PENDING_WRITES = 16;

/** Where the build writes the templates, relative to the package root (shipped: `files` has dist/pglite). */
export const TEMPLATE_DIR = 'dist/pglite';

/** The installed PGlite's version, read from its package.json (its `exports` do not list it). */
export function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === '@electric-sql/pglite' && typeof pkg.version === 'string') return pkg.version;
  }
  throw new Error('cannot find the version of @electric-sql/pglite');
}

/** Which template: the migrated schema alone, or with the sample articles' rows too. */
export type TemplateKind = 'plain' | 'samples';

/** The template's file name for a PGlite version. */
export function templateFileName(version: string = pgliteVersion(), kind: TemplateKind = 'plain'): string {
  return kind === 'plain' ? `template-${version}.tar.gz` : `template-${kind}-${version}.tar.gz`;
}

/** The shipped template for the installed PGlite, or undefined (not built, or built for another version). */
export function findTemplate(kind: TemplateKind = 'plain'): string | undefined {
  return packageFile(join(TEMPLATE_DIR, templateFileName(pgliteVersion(), kind)));
}

/**
 * Unpacks `template` into `dataDir`, which must not exist. Directories are made 0700 and files
 * 0600 (PGlite's own initdb leaves them 0666; the data directory around them is what keeps other
 * accounts out, and this keeps them out twice). The files go to a sibling directory first and are
 * renamed into place at the end: a start killed half-way leaves no half data directory that the
 * next start would take for a database. `required`: a file the archive must hold; null: none (the sample
 * snapshots, content/samples.ts, are unpacked the same way and require none).
 */
export async function unpackTemplate(template: string, dataDir: string, required: string | null = 'PG_VERSION'): Promise<void> {
  const partial = `${dataDir}.unpacking`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { mode: 0o700 });
  const writes = new FileWrites();
  /** Directories made so far: each file's parent is made once, not once per file. */
  const made = new Set<string>([partial]);
  const makeDir = (dir: string): void => {
    if (made.has(dir)) return;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    made.add(dir);
  };
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const target = entryPath(partial, header.name);
    if (target === undefined || (header.type !== 'file' && header.type !== 'directory')) {
      stream.resume();
      stream.on('end', next);
      return;
    }
    if (header.type === 'directory') {
      makeDir(target);
      stream.resume();
      stream.on('end', next);
      return;
    }
    makeDir(dirname(target));
    if (header.size !== undefined && header.size > STREAMED_ENTRY_BYTES) {
      // Streamed: the largest file is a 16 MB WAL segment of mostly zeros.
      writeSparse(stream, target, header.size).then(() => next(), next);
      return;
    }
    // The others (the catalog files, 8-200 KB) each in one write of the whole file, on
    // libuv's threads while the archive is read on: the kernel's work of creating those hundreds
    // of files (most of the unpacking's time) runs beside the main thread's, which in a start is
    // loading the service's modules meanwhile (cli/serve.ts).
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
    stream.on('end', () => {
      writes.add(target, Buffer.concat(chunks)).then(() => next(), next);
    });
  });
  try {
    await pipeline(createReadStream(template), createGunzip(), extract as unknown as Writable);
    await writes.done();
    if (required !== null && !existsSync(join(partial, required))) throw new Error(`${template} is not a PostgreSQL data directory (no ${required})`);
    renameSync(partial, dataDir);
  } catch (error) {
    await writes.settled();
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
}

/** A run of zeros to compare chunks with (a stream's chunks are at most this long: 64 KB). */
const ZEROS = Buffer.alloc(64 * 1024);

/**
 * Writes a stream to a new file of `size` bytes, leaving its runs of zeros (whole chunks of them)
 * as holes: a template's WAL segment is 16 MB of which its last records are a few KB, and the
 * holes read as zeros, as PostgreSQL expects of the rest of a segment (the kernel writes none).
 */
async function writeSparse(stream: AsyncIterable<unknown>, path: string, size: number): Promise<void> {
  const file = await open(path, 'wx', 0o600);
  try {
    let position = 0;
    for await (const data of stream) {
      const chunk = data as Buffer;
      const zeros = chunk.length <= ZEROS.length && chunk.equals(ZEROS.subarray(0, chunk.length));
      if (!zeros) await file.write(chunk, 0, chunk.length, position);
      position += chunk.length;
    }
    await file.truncate(size);
  } finally {
    await file.close();
  }
}

/**
 * Files written in the background, at most MAX_PENDING_WRITES at once (libuv has 4 threads; more
 * would only hold more of the archive in memory). `add` resolves once there is room for another;
 * the first failure is thrown by `add` or `done`.
 */
class FileWrites {
  private readonly pending = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  async add(path: string, data: Buffer): Promise<void> {
    this.throwFailure();
    const write = writeFile(path, data, { mode: 0o600, flag: 'wx' }).then(
      () => void this.pending.delete(write),
      (error: unknown) => {
        this.pending.delete(write);
        this.failure ??= { error };
      },
    );
    this.pending.add(write);
    while (this.pending.size >= MAX_PENDING_WRITES) await Promise.race(this.pending);
    this.throwFailure();
  }

  /** Every write finished; the first failure thrown. */
  async done(): Promise<void> {
    await this.settled();
    this.throwFailure();
  }

  private throwFailure(): void {
    if (this.failure !== undefined) throw this.failure.error;
  }

  /** Every write finished, failed or not (before the directory is removed). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.race(this.pending);
  }
}

/** The entry's path under `root`, or undefined when it would leave it (`..`, absolute names are made relative). */
function entryPath(root: string, name: string): string | undefined {
  const relative = normalize(name.replace(/^\/+/, ''));
  if (relative === '.' || relative === '') return undefined;
  if (relative === '..' || relative.startsWith(`..${sep}`)) return undefined;
  return join(root, relative);
}
