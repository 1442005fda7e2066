/**
 * What `wikistruct serve` loads before it starts opening the store (src/service/serve-start.ts):
 * the store opens — a first start's template files written by libuv's threads, PGlite started — while
 * the service's modules (the engine, the HTTP framework, the routes) load, so the CLI must not
 * import them statically. And nodemailer is loaded with the first mail, not by a start.
 * Read from the sources' static imports (`import ... from`, `export ... from`; `import type` and
 * `import()` load nothing at start).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

/** Every source file and package a module loads at its import, following relative imports. */
function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>([entry]);
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
      const spec = match[1]!;
      if (!spec.startsWith('.')) {
        if (!spec.startsWith('node:')) packages.add(spec);
        continue;
      }
      const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
      if (!existsSync(target) || files.has(target)) continue;
      files.add(target);
      queue.push(target);
    }
  }
  return { files, packages };
}

const names = (files: Set<string>): string[] => [...files].map((f) => relative(root, f));

describe('serve start', () => {
  test('the CLI opens the store before the service modules load: it imports neither server.ts nor the engine', () => {
    const { files } = staticGraph(join(root, 'src/cli/serve.ts'));
    expect(names(files), 'serve-start.ts and the store are loaded').toEqual(expect.arrayContaining(['src/service/serve-start.ts', 'src/service/storage/open.ts']));
    const heavy = names(files).filter((f) => f === 'src/service/server.ts' || f === 'src/service/app.ts' || f === 'src/index.ts' || f.startsWith('src/engine/'));
    expect(heavy, 'loaded only after the store started opening (import())').toEqual([]);
  });

  test('the service does not load nodemailer at start (it is loaded with the first mail)', () => {
    const { files, packages } = staticGraph(join(root, 'src/service/server.ts'));
    expect(names(files), 'the mailer module itself is loaded').toContain('src/service/mailer.ts');
    expect([...packages]).not.toContain('nodemailer');
  });
});
