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
  const pg = await PGlite.create({ loadDataDir: new Blob([new Uint8Array(initdb)]) });
  const db = pgliteDb(pg);
  try {
    await dropTemplateDatabases(pg);
    await migrate(db, options.migrations ?? MIGRATIONS);
    const plain = await pack(pg, join(outdir, templateFileName(version, 'plain')));
    if (samples === undefined || !existsSync(samples)) return { plain };
    const seeded = await seedSamples(db, systemClock, samples);
    if (seeded === undefined || seeded.summary.inserted === 0) throw new Error(`${samples}: no sample was stored`);
    const built = await pack(pg, join(outdir, templateFileName(version, 'samples')));
    await packSampleSnapshots(db, options.snapshots ?? join(ROOT, SAMPLE_SNAPSHOTS_FILE));
    return { plain, samples: built };
  } finally {
    await pg.close();
  }
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
    const pack = tar.pack();
    const entries = readdirSync(dir, { recursive: true, withFileTypes: true })
      .map((e) => ({ name: relative(dir, join(e.parentPath, e.name)), path: join(e.parentPath, e.name), directory: e.isDirectory() }))
      // Not the builds' working directories (layout.ts: `.partial` in each kind's directory).
      .filter((e) => !e.name.split('/').includes('.partial'))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    // Fixed times and modes: the same samples pack to the same bytes.
    for (const { name, path, directory } of entries) {
      if (directory) pack.entry({ name, type: 'directory', mode: 0o700, mtime: new Date(0) });
      else pack.entry({ name, mode: 0o600, mtime: new Date(0) }, readFileSync(path));
    }
    pack.finalize();
    mkdirSync(dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}`;
    await pipeline(pack, createGzip({ level: 9 }), createWriteStream(partial));
    renameSync(partial, target);
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
 * Packs the running database into `target`. VACUUM FREEZE first: the rows' visibility is settled
 * at build time, not by the first start's reads (which would write the pages again to set their
 * hint bits). Then the WAL is switched to a new segment and a checkpoint writes every page to the
 * data files: the start replays nothing, and the segment that held the inserts (their pages again,
 * as full-page images) is deleted rather than kept for reuse (wal_recycle off), so the template
 * packs a segment of zeros: the samples template went from 7.1 to 4.1 MB, and unpacking it costs
 * CPU on every first start.
 */
async function pack(pg: PGlite, target: string): Promise<string> {
  await pg.exec('VACUUM (FREEZE, ANALYZE)');
  await pg.exec('SET wal_recycle = off');
  await pg.exec('SELECT pg_switch_wal()');
  await pg.exec('CHECKPOINT');
  const dump = await pg.dumpDataDir('gzip');
  const partial = `${target}.${process.pid}`;
  writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
  renameSync(partial, target);
  return target;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildPgliteTemplates();
  console.log(`pglite templates: ${built.plain}${built.samples === undefined ? ' (no stored samples: no samples template)' : `, ${built.samples}`}`);
}
