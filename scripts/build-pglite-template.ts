/**
 * Builds the embedded database's templates (src/service/storage/pglite-template.ts): PGlite runs
 * its initdb in memory, the migrations are applied, and the data directory is packed as tar.gz
 * into dist/pglite/template-<PGlite version>.tar.gz; then the sample articles' rows
 * (dist/samples/stored.ndjson.gz, scripts/build-samples.ts) are inserted and it is packed again as
 * dist/pglite/template-samples-<PGlite version>.tar.gz. A first `wikistruct serve` unpacks one of
 * them instead of running initdb, the migrations and the inserts. `npm run build` runs it after
 * tsc and scripts/build-samples.ts.
 *
 * initdb takes seconds (tens on a loaded machine), and `npm run build` starts by deleting dist/:
 * initdb's output is kept in node_modules/.cache/wikistruct, keyed by the PGlite version, and
 * reused when present (it depends only on PGlite, whose WebAssembly initdb sets its own locale and
 * time zone). The migrations and the samples depend on this project's code: they are applied at
 * every build (about a second).
 */
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { readPageLinks } from '../src/index.js';
import { systemClock } from '../src/service/clock.js';
import { pageLinksInput } from '../src/service/content/enterprise/article-reply.js';
import { SAMPLE_SNAPSHOTS_FILE, seedSamples, STORED_SAMPLES_FILE } from '../src/service/content/samples.js';
import { buildSnapshots } from '../src/service/snapshots/build-all.js';
import { migrate } from '../src/service/storage/migrate.js';
import { MIGRATIONS, type Migration } from '../src/service/storage/migrations.js';
import { pgliteDb } from '../src/service/storage/pglite.js';
import { TEMPLATE_DIR, pgliteVersion, templateFileName } from '../src/service/storage/pglite-template.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, 'node_modules/.cache/wikistruct');

export interface TemplateBuildOptions {
  /** Default dist/pglite. */
  outdir?: string;
  /** Default every migration (tests build a template older than the migrations). */
  migrations?: readonly Migration[];
  /** The stored samples; default dist/samples/stored.ndjson.gz; none: no samples template. */
  samples?: string | undefined;
  /** Where the samples' snapshots are packed; default dist/samples/snapshots.tar.gz. */
  snapshots?: string;
}

/** Writes the templates into `outdir`; returns their paths (the samples one only when there are samples). */
export async function buildPgliteTemplates(options: TemplateBuildOptions = {}): Promise<{ plain: string; samples?: string }> {
  const outdir = options.outdir ?? join(ROOT, TEMPLATE_DIR);
  const samples = 'samples' in options ? options.samples : join(ROOT, STORED_SAMPLES_FILE);
  const version = pgliteVersion();
  const initdb = await initdbOutput(version);
  mkdirSync(outdir, { recursive: true });
  // The database is made in a directory, by PGlites that each stop cleanly, and each template is
  // that directory packed: see `stopped`.
  const work = mkdtempSync(join(tmpdir(), 'wikistruct-pglite-template-'));
  const dataDir = join(work, 'pglite');
  try {
    const plain = await stopped(dataDir, join(outdir, templateFileName(version, 'plain')), { loadDataDir: new Blob([new Uint8Array(initdb)]) }, async (pg) => {
      await dropTemplateDatabases(pg);
      await migrate(pgliteDb(pg), options.migrations ?? MIGRATIONS);
    });
    if (samples === undefined || !existsSync(samples)) return { plain };
    const built = await stopped(dataDir, join(outdir, templateFileName(version, 'samples')), {}, async (pg) => {
      const seeded = await seedSamples(pgliteDb(pg), systemClock, samples);
      if (seeded === undefined || seeded.summary.inserted === 0) throw new Error(`${samples}: no sample was stored`);
    });
    // From the samples template's database, which the snapshot build writes to (its lease): after it was packed.
    const pg = await PGlite.create(dataDir);
    try {
      await packSampleSnapshots(pgliteDb(pg), options.snapshots ?? join(ROOT, SAMPLE_SNAPSHOTS_FILE));
    } finally {
      await pg.close();
    }
    return { plain, samples: built };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Opens the database in `dataDir` (made from `options.loadDataDir` when given), runs `fill`, and
 * packs the directory into `target` once PGlite has stopped, as every later start finds it: a
 * cluster shut down cleanly, whose relation cache files a second open wrote. The templates were
 * once the files of a running PGlite (its `dumpDataDir`), and PostgreSQL took each first start
 * for one after a crash: it ran its recovery (the data directory's files scanned for unlogged
 * relations, the WAL replayed, a checkpoint written) and then rebuilt the relation cache from the
 * catalogs, which a later start reads from pg_internal.init. Without the relations' free space
 * and visibility maps (their `_fsm` and `_vm` forks, 98 of 438 files): PostgreSQL reads a missing
 * map as one that promises nothing (no free space known, no page all-visible) and makes it when it
 * first records something in it; a first start creates a fifth fewer files.
 */
async function stopped(dataDir: string, target: string, options: { loadDataDir?: Blob }, fill: (pg: PGlite) => Promise<void>): Promise<string> {
  const pg = await PGlite.create(dataDir, options);
  try {
    await fill(pg);
    await settle(pg);
  } finally {
    await pg.close();
  }
  // Started again and stopped: the relation cache files are written by a start.
  await (await PGlite.create(dataDir)).close();
  await packDirectory(dataDir, target, (name) => !/^postmaster\.(pid|opts)$/.test(name) && !/_(fsm|vm)$/.test(name));
  return target;
}

/**
 * Builds the samples' snapshots (both kinds, as a first start's scheduler would) and packs the
 * snapshots directory into `target`: a first start from the samples template unpacks it
 * (content/samples.ts) and builds none. Every sample is stored with its Article of this engine
 * version, so the build parses nothing.
 */
async function packSampleSnapshots(db: ReturnType<typeof pgliteDb>, target: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wikistruct-sample-snapshots-'));
  try {
    await buildSnapshots({
      db,
      clock: systemClock,
      dir,
      service: {
        articleJson: (row) => Promise.reject(new Error(`${row.title} (${row.project}): stored without its Article of this engine version`)),
        // The regular snapshots' categories and templates, read here as the service reads them
        // for an article whose metadata lists none (ContentService.pageLinks), on this thread.
        pageLinks: (row) => {
          const input = pageLinksInput(row);
          return Promise.resolve(input === undefined ? undefined : readPageLinks(input.html, input.base === undefined ? {} : { base: input.base }));
        },
      },
    });
    // Not the builds' working directories (layout.ts: `.partial` in each kind's directory).
    await packDirectory(dir, target, (name) => !name.split('/').includes('.partial'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** initdb's data directory as tar.gz, from the cache or made now. */
async function initdbOutput(version: string): Promise<Buffer> {
  const cached = join(CACHE, `initdb-${version}.tar.gz`);
  if (!existsSync(cached)) {
    const pg = await PGlite.create();
    try {
      const dump = await pg.dumpDataDir('gzip');
      mkdirSync(CACHE, { recursive: true });
      // Written beside and renamed: two builds at once never see half a file.
      const partial = `${cached}.${process.pid}`;
      writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
      renameSync(partial, cached);
    } finally {
      await pg.close();
    }
  }
  return readFileSync(cached);
}

/**
 * Drops initdb's template databases (template1, template0): the service works in `postgres` and
 * never creates a database, which is all they are for, and they were 600 of the template's 1,063
 * files and 15 of its 42 MB. A first start writes every file of the template before PGlite can
 * start, most of that time the kernel's creation of each file (issue 26, time to ready).
 */
async function dropTemplateDatabases(pg: PGlite): Promise<void> {
  for (const name of ['template1', 'template0']) {
    await pg.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`);
    await pg.exec(`DROP DATABASE ${name}`);
  }
}

/**
 * Readies the database to be packed. VACUUM FREEZE first: the rows' visibility is settled at
 * build time, not by the first start's reads (which would write the pages again to set their hint
 * bits). Then the WAL is switched to a new segment and a checkpoint writes every page to the data
 * files, and the segment that held the inserts (their pages again, as full-page images) is
 * deleted rather than kept for reuse (wal_recycle off), so the template packs a segment of zeros
 * but for its last records: the samples template went from 7.1 to 4.1 MB, and unpacking it costs
 * CPU on every first start.
 */
async function settle(pg: PGlite): Promise<void> {
  await pg.exec('VACUUM (FREEZE, ANALYZE)');
  await pg.exec('SET wal_recycle = off');
  await pg.exec('SELECT pg_switch_wal()');
  await pg.exec('CHECKPOINT');
}

/**
 * The files and directories under `dir` (those whose relative name `keep` accepts) as a tar.gz
 * at `target`, in name order, with fixed times and modes: the same files pack to the same bytes.
 */
async function packDirectory(dir: string, target: string, keep: (name: string) => boolean): Promise<void> {
  const pack = tar.pack();
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => ({ name: relative(dir, join(e.parentPath, e.name)), path: join(e.parentPath, e.name), directory: e.isDirectory() }))
    .filter((e) => keep(e.name))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const { name, path, directory } of entries) {
    if (directory) pack.entry({ name, type: 'directory', mode: 0o700, mtime: new Date(0) });
    else pack.entry({ name, mode: 0o600, mtime: new Date(0) }, readFileSync(path));
  }
  pack.finalize();
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}`;
  await pipeline(pack, createGzip({ level: 9 }), createWriteStream(partial));
  renameSync(partial, target);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildPgliteTemplates();
  console.log(`pglite templates: ${built.plain}${built.samples === undefined ? ' (no stored samples: no samples template)' : `, ${built.samples}`}`);
}
