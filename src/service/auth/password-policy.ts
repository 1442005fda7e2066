import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;
const LIST = join('grammar', 'common-passwords.txt');

let common: ReadonlySet<string> | undefined;

/** The shipped list of common passwords, lower-cased; found from the source or the built copy. */
export function commonPasswords(): ReadonlySet<string> {
  if (common !== undefined) return common;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, LIST))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${LIST} not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  const lines = readFileSync(join(dir, LIST), 'utf8').split('\n');
  common = new Set(lines.map((l) => l.trim().toLowerCase()).filter((l) => l !== '' && !l.startsWith('#')));
  return common;
}

/** The first policy rule `password` breaks, as a message ending a sentence; undefined if none. */
export function passwordPolicyViolation(password: string, username: string): string | undefined {
  const length = [...password].length; // code points, as a person counts characters
  if (length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  if (length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters long`;
  const lower = password.toLowerCase();
  if (lower === username.toLowerCase()) return 'must not be the same as the username';
  if (commonPasswords().has(lower)) return 'is too common: it is on the list of common passwords';
  return undefined;
}
