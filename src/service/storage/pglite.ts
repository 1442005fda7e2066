import { existsSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import type { Db, Queryable } from './db.js';
import { findTemplate, unpackTemplate, type TemplateKind } from './pglite-template.js';
import { startMark } from '../start-trace.js';

/**
 * PostgreSQL settings of the embedded database, given on its command line so that they also hold
 * for data directories made before they existed (initdb wrote `shared_buffers = 128MB` into each
 * postgresql.conf; the command line wins over it).
 *
 * shared_buffers: PostgreSQL clears its shared memory when it starts, and in PGlite that memory is
 * the process's own WebAssembly heap, so every megabyte of it is resident from the start: 128 MB
 * of an idle server's 340-364 MB. The data files are ordinary files (the kernel's page cache keeps
 * them), and one connection needs few buffers: 16 MB (2,048 pages) holds the catalog and the hot
 * rows of a few hundred articles.
 */
export const PGLITE_SETTINGS: readonly string[] = ['-c', 'shared_buffers=16MB'];

/**
 * V8 compiles PGlite's 9 MB of WebAssembly with its baseline compiler (Liftoff) and then, for
 * each function that gets hot, again with its optimising one (TurboFan), keeping both: the
 * optimised code and the compiler's memory grew an idle server by 35-90 MB (more the more kinds of
 * statement had run: migrations, the first article insert). Liftoff code alone made no measurable
 * difference to the CPU time of the service's queries (1,000 key lookups and 100 reads of a 1.5 MB
 * article, pinned to one core, three alternating rounds each: within the rounds' noise, which went
 * both ways). The flag is process-wide and applies to WebAssembly compiled after it is set: the
 * only other module in the service is Node's HTTP client parser (llhttp, fetch), which is small
 * and parses a few upstream responses.
 */
const BASELINE_WASM_ONLY = '--liftoff-only';
/** Set once per process: the flag stays set, and each call re-parses V8's flag string. */
let baselineOnly = false;

/**
 * Embedded PostgreSQL in a data directory. PGlite is single-process and single-connection: it
 * serialises queries itself, and the data directory must never be opened by two processes at
 * once (see lock.ts, which callers take first). A new data directory is unpacked from the build's
 * template when there is one (pglite-template.ts), else made by PGlite's own initdb.
 *
 * `template: 'samples'` asks for the template that holds the sample articles (a first `serve`);
 * `unpacked` says which template a new data directory was made from, if any.
 */
export async function openPglite(dataDir: string | undefined, options: { template?: TemplateKind } = {}): Promise<Db & { unpacked?: TemplateKind }> {
  if (!baselineOnly) {
    setFlagsFromString(BASELINE_WASM_ONLY);
    baselineOnly = true;
  }
  const startParams = [...PGlite.defaultStartParams, ...PGLITE_SETTINGS];
  // Compiled on V8's background threads while the template is unpacked (a first start), not after.
  const compiling = compilePgliteWasm();
  let pg: PGlite;
  let unpacked: TemplateKind | undefined;
  if (dataDir === undefined) {
    // In memory: PGlite loads the template itself (there is no directory to unpack it into).
    const template = findTemplate();
    const loadDataDir = template === undefined ? undefined : new Blob([readFileSync(template)]);
    pg = await PGlite.create({ startParams, ...(await compiling), ...(loadDataDir === undefined ? {} : { loadDataDir }) });
  } else {
    if (isEmpty(dataDir)) {
      // Without the samples template (a build that made only the plain one), the plain one: the
      // samples are then inserted after it is opened (content/samples.ts).
      const kinds: TemplateKind[] = options.template === 'samples' ? ['samples', 'plain'] : ['plain'];
      for (const kind of kinds) {
        const found = findTemplate(kind);
        if (found === undefined) continue;
        await unpackTemplate(found, dataDir);
        unpacked = kind;
        startMark('template unpacked');
        break;
      }
    }
    pg = await PGlite.create(dataDir, { startParams, ...(await compiling) });
  }
  return { ...pgliteDb(pg), ...(unpacked === undefined ? {} : { unpacked }) };
}

/**
 * PGlite's WebAssembly, compiled now (V8 compiles it on background threads), as PGlite's
 * `pgliteWasmModule` option; PGlite otherwise reads and compiles it itself inside `create`. A
 * first start calls create only once its template is unpacked (0.5-1 s of file creation on
 * libuv's threads): compiled beside the unpacking, the module is ready when create is called. The
 * file is PGlite's own (dist/pglite.wasm beside its entry point); when it is not there (another
 * layout in a later PGlite), nothing is given and PGlite finds it as before.
 */
async function compilePgliteWasm(): Promise<Pick<PGliteOptions, 'pgliteWasmModule'>> {
  // The global of node's WebAssembly (this project's TypeScript libraries do not declare it).
  const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<NonNullable<PGliteOptions['pgliteWasmModule']>> } }).WebAssembly;
  try {
    const file = join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), 'pglite.wasm');
    return { pgliteWasmModule: await wasm.compile(await readFile(file)) };
  } catch {
    return {};
  }
}

/** A running PGlite as the service's Db (the build's template script uses it too). */
export function pgliteDb(pg: PGlite): Db {
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    query: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await q.query<T>(sql, [...params])).rows,
  });
  return {
    kind: 'pglite',
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  };
}

/** No directory there, or an empty one (removed, so that the template can be renamed into its place). */
function isEmpty(dir: string): boolean {
  if (!existsSync(dir)) return true;
  if (readdirSync(dir).length > 0) return false;
  rmdirSync(dir);
  return true;
}
