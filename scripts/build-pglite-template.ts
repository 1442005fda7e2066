/**
 * Builds the embedded database's template (src/service/storage/pglite-template.ts): PGlite runs
 * its initdb in memory and packs the resulting data directory as tar.gz into
 * dist/pglite/template-<PGlite version>.tar.gz, which a first `wikistruct serve` unpacks instead
 * of running initdb. `npm run build` runs it after tsc.
 *
 * initdb takes seconds (tens on a loaded machine), and `npm run build` starts by deleting dist/:
 * the packed file is also kept in node_modules/.cache/wikistruct, keyed by the PGlite version,
 * and copied from there when present. Nothing in it depends on this project's code or on the
 * machine: only on PGlite (whose WebAssembly initdb sets its own locale and time zone).
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { TEMPLATE_DIR, pgliteVersion, templateFileName } from '../src/service/storage/pglite-template.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, 'node_modules/.cache/wikistruct');

/** Writes the template into `outdir` (default dist/pglite); returns its path. */
export async function buildPgliteTemplate(outdir: string = join(ROOT, TEMPLATE_DIR)): Promise<string> {
  const name = templateFileName(pgliteVersion());
  const target = join(outdir, name);
  const cached = join(CACHE, name);
  mkdirSync(outdir, { recursive: true });
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
  copyFileSync(cached, target);
  return target;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const path = await buildPgliteTemplate();
  console.log(`pglite template: ${path}`);
}
