/**
 * The data directory holds secrets: the embedded database (password hashes, refresh-token hashes,
 * the sealed signing keys), the key secret that opens those keys, the mail outbox (reset codes).
 * It must be private to the account that runs the service, whatever the umask: PGlite writes
 * most of its files mode 0666 regardless of it, so the directory's own mode is the one barrier.
 *
 * `prepareDataDir` creates it 0700 (the mode is given to mkdir, so nothing is ever created more
 * open and tightened later) and refuses one that other accounts can enter, read or write, or that
 * belongs to another account, unless the operator says otherwise (`--allow-shared-data-dir`).
 */
import { mkdirSync, statSync, type Stats } from 'node:fs';

/** Mode bits that let anyone but the owner in: group and other, any of read, write, search. */
const OTHERS = 0o077;

export class SharedDataDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SharedDataDirError';
  }
}

export interface PrivacyOptions {
  /** The operator accepts a directory (or file) others can reach: no check. */
  allowShared?: boolean;
}

/** Creates `dir` (and missing parents) mode 0700; throws SharedDataDirError when an existing one is not private. */
export function prepareDataDir(dir: string, options: PrivacyOptions = {}): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (options.allowShared === true) return;
  const problem = exposure(statSync(dir), 'directory');
  if (problem !== undefined) {
    throw new SharedDataDirError(
      `the data directory ${dir} ${problem}; it holds the database and the signing keys: run \`chmod 700 ${shellQuote(dir)}\`` +
        ' (as its owner), or start with --allow-shared-data-dir if something else keeps other accounts out',
    );
  }
}

/** Throws SharedDataDirError when a file of key material is readable or writable by other accounts. */
export function requirePrivateFile(path: string, what: string, options: PrivacyOptions = {}): void {
  if (options.allowShared === true) return;
  const problem = exposure(statSync(path), 'file');
  if (problem !== undefined) {
    throw new SharedDataDirError(`${what} ${path} ${problem}: run \`chmod 600 ${shellQuote(path)}\`, or start with --allow-shared-data-dir`);
  }
}

/** Why other accounts can reach it, or undefined when they cannot. */
function exposure(stats: Stats, kind: 'directory' | 'file'): string | undefined {
  const uid = process.getuid?.();
  // Its owner could open it up again at any time.
  if (uid !== undefined && stats.uid !== uid) return `belongs to another account (uid ${stats.uid})`;
  const mode = stats.mode & 0o777;
  if ((mode & OTHERS) !== 0) return `is open to other accounts (mode ${mode.toString(8).padStart(4, '0')}; a ${kind} of secrets must be ${kind === 'directory' ? '0700' : '0600'})`;
  return undefined;
}

function shellQuote(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
