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
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { systemClock } from '../src/service/clock.js';
import { seedSamples, STORED_SAMPLES_FILE } from '../src/service/content/samples.js';
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
    await migrate(db, options.migrations ?? MIGRATIONS);
    const plain = await pack(pg, join(outdir, templateFileName(version, 'plain')));
    if (samples === undefined || !existsSync(samples)) return { plain };
    const seeded = await seedSamples(db, systemClock, samples);
    if (seeded === undefined || seeded.summary.inserted === 0) throw new Error(`${samples}: no sample was stored`);
    return { plain, samples: await pack(pg, join(outdir, templateFileName(version, 'samples'))) };
  } finally {
    await pg.close();
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
