/**
 * Validates the built grammar once, for every start of the built CLI (src/engine/grammar/stamp.ts):
 * loads dist/src/engine/grammar/load.js (which, unstamped, validates dist/grammar/*.json with zod
 * as it loads, and fails the build on a bad file), checks that validation returns every file's
 * values as they are (the schemas transform nothing; zod only puts an object's keys in its
 * schema's order, which no reader of the grammar depends on: the corpus output is the same), so
 * that the files as imported can stand for their validated values, and writes their stamp into dist/src/engine/grammar/stamp.js. A start then skips zod
 * while the files keep that stamp. `npm run build` runs it after tsc.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** What this script uses of the built loader (src/engine/grammar/load.ts). */
interface BuiltLoader {
  GRAMMAR_SOURCES: Readonly<Record<string, unknown>>;
  validateAll(): Readonly<Record<string, unknown>>;
  grammarStamp(): string;
}

/** Stamps `dist` (default the build's) and returns the stamp. */
export async function stampGrammar(dist: string = join(ROOT, 'dist')): Promise<string> {
  const stampFile = join(dist, 'src/engine/grammar/stamp.js');
  const compiled = readFileSync(stampFile, 'utf8');
  const unstamped = 'export const VALIDATED_GRAMMAR_STAMP = undefined;';
  if (!compiled.includes(unstamped)) throw new Error(`${stampFile}: not the compiled stamp.ts (already stamped? run tsc first)`);
  const load = (await import(pathToFileURL(join(dist, 'src/engine/grammar/load.js')).href)) as BuiltLoader;
  const validated = load.validateAll();
  for (const [name, source] of Object.entries(load.GRAMMAR_SOURCES)) {
    if (canonical(validated[name]) !== canonical(source)) {
      throw new Error(`grammar/${name}.json: its schema changes what it validates; a start cannot use the file as imported (src/engine/grammar/stamp.ts)`);
    }
  }
  const stamp = load.grammarStamp();
  writeFileSync(stampFile, compiled.replace(unstamped, `export const VALIDATED_GRAMMAR_STAMP = ${JSON.stringify(stamp)};`));
  return stamp;
}

/** JSON with every object's keys sorted. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(`grammar validated, stamped ${await stampGrammar()}`);
}
