/**
 * The files a run's inputs stand for, in a stable order — resuming relies on every run seeing
 * the records in the same order, and the queue planner walks exactly as a single run reads.
 *
 * - A directory stands for every file below it whose name a reader knows (`CONVERTIBLE`),
 *   recursively, sorted by name. Dot files count (real titles start with a dot:
 *   `.NET_Foundation.html`); dot directories do not (`.git`, `.cache`).
 * - Symbolic links are followed, to files and to directories: dataset caches (Hugging Face's
 *   `snapshots/<revision>/` links into `blobs/`, git-annex's links into `.git/annex/objects/`)
 *   are folders of links. A link is taken or left by its own name, not its target's (a blob is
 *   named by its hash), and its records keep the link's path as their `source`.
 * - One real file (device and inode) is read once per run, at its first place in that order,
 *   however many paths lead to it: two snapshots of a cache linking the same blob, a directory
 *   reached both directly and through a link, an input named twice. Reading it twice would only
 *   write each of its Articles twice.
 * - A link that leads back into a directory it is inside of (a directory cycle) is not followed;
 *   a link whose target does not exist, or a chain of links that never ends, cannot be read. Each
 *   is one failed input naming the link (SYMLINK_LOOP, DANGLING_SYMLINK), and the walk goes on.
 * - A directory given as an input that holds no input file at all is one failed input
 *   (EMPTY_INPUT): a run that reads nothing must not look like a run that converted everything.
 */
import { lstat, opendir, readlink, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { empty, InputError, inputErrorOf } from './input-error.js';

/** The names the readers know (detect.ts), compressed as they accept them. */
const CONVERTIBLE = /\.(?:(?:html?|json|jsonl|ndjson|wikitext)(?:\.gz)?|xml(?:\.gz|\.bz2)?|tar\.gz|tgz)$/i;
const KNOWN_NAMES = '.html, .htm, .json, .jsonl, .ndjson, .wikitext (each also .gz), .xml, .xml.gz, .xml.bz2, .tar.gz, .tgz';

export interface InputFile {
  /** The path as the run names it: under a directory input, a link's own path. */
  path: string;
  /** The path cannot be read as an input; reported as one failed input at position 0. */
  error?: InputError;
}

/** What a walk has met, for the read-once rule and for cycles. */
class Visited {
  private readonly files = new Set<string>();
  private readonly dirs = new Set<string>();

  /** True the first time this real file or directory is met. */
  first(info: Stats): boolean {
    const set = info.isDirectory() ? this.dirs : this.files;
    const id = idOf(info);
    if (set.has(id)) return false;
    set.add(id);
    return true;
  }

  /** True the first time this unreadable path (a link, by its own identity) is met: it is reported once. */
  async firstUnreadable(path: string): Promise<boolean> {
    const info = await lstat(path).catch(() => undefined);
    return info === undefined || this.first(info);
  }
}

interface Tally {
  /** Input files (and unreadable links named like one) met, read or not. */
  found: number;
  /** Files skipped because no reader knows their name. */
  ignored: number;
}

function idOf(info: Stats): string {
  return `${info.dev}:${info.ino}`;
}

/**
 * `exclude`: the run's own files (output, errors file, checkpoint), which may sit in an input
 * directory. They are matched by real path too: reached through a link to their directory, an
 * output being written would otherwise be read as an input.
 */
export async function* listInputFiles(inputs: readonly string[], exclude: ReadonlySet<string>): AsyncGenerator<InputFile> {
  const visited = new Visited();
  const excluded = new Set(exclude);
  for (const path of exclude) excluded.add(join(await realpath(dirname(path)).catch(() => dirname(path)), basename(path)));
  for (const input of inputs) {
    const info = await follow(input);
    if (info instanceof InputError) {
      if (await visited.firstUnreadable(input)) yield { path: input, error: info };
    } else if (!info.isDirectory()) {
      // Any other path named on the command line is read, whatever its name (--from may say how).
      if (visited.first(info)) yield { path: input };
    } else if (visited.first(info)) {
      const tally: Tally = { found: 0, ignored: 0 };
      yield* walk(input, new Map([[idOf(info), input]]), visited, excluded, tally);
      if (tally.found === 0) {
        const others = tally.ignored === 0 ? '' : `; ${tally.ignored} other file${tally.ignored === 1 ? '' : 's'} ignored`;
        yield { path: input, error: empty(`the directory holds no input file (names ending ${KNOWN_NAMES})${others}`) };
      }
    }
  }
}

/** `ancestors`: the real directories the walk is inside of (id → path), to tell a cycle from a second path. */
async function* walk(dir: string, ancestors: Map<string, string>, visited: Visited, exclude: ReadonlySet<string>, tally: Tally): AsyncGenerator<InputFile> {
  const entries: { name: string; link: boolean; isDir: boolean }[] = [];
  try {
    for await (const entry of await opendir(dir)) {
      if (entry.isDirectory() || entry.isFile() || entry.isSymbolicLink()) {
        entries.push({ name: entry.name, link: entry.isSymbolicLink(), isDir: entry.isDirectory() });
      }
    }
  } catch (error) {
    // A directory that cannot be listed (permission denied) is one failed input; its siblings are read.
    tally.found += 1;
    yield { path: dir, error: inputErrorOf(error) };
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const real = await realpath(dir).catch(() => resolve(dir));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (exclude.has(resolve(path)) || exclude.has(join(real, entry.name))) continue;
    if (entry.isDir && entry.name.startsWith('.')) continue;
    const convertible = CONVERTIBLE.test(entry.name);
    if (!entry.link && !entry.isDir && !convertible) {
      tally.ignored += 1;
      continue;
    }
    // Plain files are stat'ed too: a link met earlier may have led to the same file.
    const info = await follow(path);
    if (info instanceof InputError) {
      // An unreadable link is reported only where it would have been read: named like an input.
      if (!entry.link || convertible) {
        tally.found += 1;
        if (await visited.firstUnreadable(path)) yield { path, error: info };
      } else {
        tally.ignored += 1;
      }
      continue;
    }
    if (info.isDirectory()) {
      if (entry.name.startsWith('.')) continue;
      const inside = ancestors.get(idOf(info));
      if (inside !== undefined) {
        tally.found += 1;
        yield { path, error: new InputError('SYMLINK_LOOP', `symbolic link loop: → ${await readlink(path).catch(() => '?')} leads back to ${inside}, a directory it is inside of; not followed`) };
        continue;
      }
      if (!visited.first(info)) continue; // walked already, through another path
      ancestors.set(idOf(info), path);
      yield* walk(path, ancestors, visited, exclude, tally);
      ancestors.delete(idOf(info));
    } else if (info.isFile()) {
      if (!convertible) {
        tally.ignored += 1;
        continue;
      }
      tally.found += 1;
      if (visited.first(info)) yield { path };
    }
  }
}

/**
 * The file or directory a path leads to, links followed; an unreadable link named as such.
 * The whole chain is shown for a dangling link: `a → b → missing`.
 */
async function follow(path: string): Promise<Stats | InputError> {
  try {
    return await stat(path);
  } catch (error) {
    const chain = await linkChain(path);
    if (chain.length > 0) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return new InputError('DANGLING_SYMLINK', `dangling symbolic link → ${chain.join(' → ')}`);
      if (code === 'ELOOP') return new InputError('SYMLINK_LOOP', `symbolic link loop: → ${chain.join(' → ')} → … never reaches a file`);
    }
    return inputErrorOf(error);
  }
}

/** The targets of a chain of links, as written in each link, up to a missing one or the first repeated. */
async function linkChain(path: string): Promise<string[]> {
  const chain: string[] = [];
  const met = new Set([resolve(path)]);
  let at = path;
  while (chain.length < 40) {
    const next = await readlink(at).catch(() => undefined);
    if (next === undefined) break;
    chain.push(next);
    at = resolve(dirname(at), next);
    if (met.has(at)) break;
    met.add(at);
  }
  return chain;
}

/**
 * Whether a path names something, a link included whatever its target: a dangling link given
 * as an input is a failed input (reported with its target), not a mistyped path.
 */
export async function pathExists(path: string): Promise<boolean> {
  return lstat(path).then(() => true, () => false);
}
