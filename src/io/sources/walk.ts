/**
 * The files a directory input stands for: `.html`/`.htm` and `.json` files, recursively, in a
 * stable (sorted) order — resuming relies on every run seeing the records in the same order.
 * Dot files count (real titles start with a dot: `.NET_Foundation.html`); dot directories do not.
 */
import { opendir } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const CONVERTIBLE = /\.(html?|json)$/i;

export async function* walkInputFiles(dir: string, exclude: ReadonlySet<string>): AsyncGenerator<string> {
  const entries: { name: string; isDir: boolean }[] = [];
  for await (const entry of await opendir(dir)) {
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.')) entries.push({ name: entry.name, isDir: true });
    } else if (entry.isFile() && CONVERTIBLE.test(entry.name)) {
      entries.push({ name: entry.name, isDir: false });
    }
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (exclude.has(resolve(path))) continue;
    if (entry.isDir) yield* walkInputFiles(path, exclude);
    else yield path;
  }
}
