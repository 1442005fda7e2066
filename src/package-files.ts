import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The absolute path of a file shipped with the package (`grammar/…`, `samples/…`), found by
 * walking up from this module: it runs from `src/` under tsx and from `dist/src/` when built or
 * installed, and the shipped folders sit at the package root in every case.
 */
export function packageFile(relative: string): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
