/**
 * `convert`'s main thread reads, splits, dispatches and writes; it never parses, so it never loads
 * the engine (23 MB of a process's memory once its modules are loaded, more as they run; issue 26).
 * A dump's `<siteinfo>` travels to the workers as text and is parsed there
 * (src/io/sources/siteinfo.ts). What is checked: the modules `wikistruct convert` may load — every
 * value import, static or dynamic, followed from src/cli/convert.ts — never include src/index.ts
 * but through the one named exception. Type-only imports load nothing at run time, and a worker's
 * entry is found by URL and loaded on its own thread.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)));

// `import x from '…'`, `import { a, type B } from '…'`, `export { a } from '…'`, `import '…'`,
// `import('…')`; not `import type …` or `export type …`.
const VALUE_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^;'"]*?\bfrom\s*)?(['"])([^'"\n]+)\1|\bimport\(\s*(['"])([^'"\n]+)\3/gm;

/**
 * The one way in, a dynamic import reached only when a run names `--siteinfo FILE`: the file is
 * parsed once on the main thread before the run starts, so that one holding no siteinfo is bad
 * usage with the engine's own message (checkSiteinfoFile).
 */
const ALLOWED_DYNAMIC = new Set(['src/io/sources/siteinfo.ts → src/index.ts']);

/** The repository-relative .ts files that `entry` loads when it is imported, itself included. */
function loadedBy(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(ROOT, file), 'utf8');
    for (const match of code.matchAll(VALUE_IMPORT)) {
      const specifier = match[2] ?? match[4]!;
      if (!specifier.startsWith('.')) continue;
      const target = relative(ROOT, resolve(dirname(join(ROOT, file)), specifier.replace(/\.js$/, '.ts'))).split(sep).join('/');
      if (match[4] !== undefined && ALLOWED_DYNAMIC.has(`${file} → ${target}`)) continue;
      if (target.endsWith('.ts') && existsSync(join(ROOT, target))) queue.push(target);
    }
  }
  return seen;
}

describe("convert's main thread", () => {
  it('finds what it checks: the engine is loaded by the worker entry, and convert loads the readers', () => {
    expect(loadedBy('src/workers/worker.ts')).toContain('src/index.ts');
    const convert = loadedBy('src/cli/convert.ts');
    expect(convert).toContain('src/batch/convert.ts');
    expect(convert).toContain('src/io/sources/readers.ts');
    expect(convert).toContain('src/io/sources/siteinfo.ts');
    expect(convert, '--queue runs too').toContain('src/batch/queue/coordinator.ts');
  });

  it('does not load the engine', () => {
    const engine = [...loadedBy('src/cli/convert.ts')].filter((file) => file === 'src/index.ts' || file.startsWith('src/engine/'));
    expect(engine).toEqual([]);
  });
});
