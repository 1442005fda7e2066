/**
 * The one recursive directory walk of the tests that scan the repository's own files (the dist
 * freshness check, the grammar and markup-literal guards, the layering check).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every file below `dir`, as `dir` joined with its path, depth first in directory order; anything
 * that is not a directory counts as a file (symbolic links are not followed). Callers filter and
 * sort. A missing `dir` throws, as readdirSync does.
 */
export function filesBelow(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesBelow(path));
    else out.push(path);
  }
  return out;
}
