/**
 * Which built outputs are older than their sources. Several suites run `dist/` rather than the
 * TypeScript they sit beside — the CLI as a child process, the batch and parse worker threads
 * (workers run compiled JavaScript), the explorer's bundle, the packed package — so after an edit a
 * bare `vitest` would test the old code and pass. The global setup refuses to run then.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { filesBelow } from './files.js';

/** Every file below `dir` (relative to `root`) whose name passes `keep`; none if `dir` is missing. */
function filesIn(root: string, dir: string, keep: (name: string) => boolean): string[] {
  const below = join(root, dir);
  if (!existsSync(below)) return [];
  return filesBelow(below)
    .filter((path) => keep(basename(path)))
    .map((path) => relative(root, path))
    .sort();
}

const mtime = (path: string): number | undefined => (existsSync(path) ? statSync(path).mtimeMs : undefined);

/**
 * Sources (relative to `root`) whose built output is missing or older: src/**\/*.ts → dist/src/**\/*.js
 * (tsc), grammar/*.json → dist/grammar/*.json (tsc copies them), and the explorer's sources and
 * the engine modules it bundles → dist/explorer/app.js (esbuild).
 */
export function staleSources(root: string): string[] {
  const stale: string[] = [];
  const isTs = (n: string): boolean => n.endsWith('.ts') && !n.endsWith('.d.ts');
  for (const source of filesIn(root, 'src', isTs)) {
    if (source.startsWith(join('src', 'explorer'))) continue;
    const built = mtime(join(root, 'dist', source.replace(/\.ts$/, '.js')));
    if (built === undefined || built < mtime(join(root, source))!) stale.push(source);
  }
  for (const source of filesIn(root, 'grammar', (n) => n.endsWith('.json')).filter((f) => !f.includes(join('grammar', 'schema')))) {
    const built = mtime(join(root, 'dist', source));
    if (built === undefined || built < mtime(join(root, source))!) stale.push(source);
  }
  const bundle = mtime(join(root, 'dist', 'explorer', 'app.js'));
  for (const source of [...filesIn(root, join('src', 'explorer'), () => true), ...filesIn(root, join('src', 'engine'), isTs)]) {
    if (bundle === undefined || bundle < mtime(join(root, source))!) stale.push(`${source} (explorer bundle)`);
  }
  return stale;
}
