import { readFileSync } from 'node:fs';
import { packageFile } from '../../package-files.js';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;
const LIST = 'grammar/common-passwords.txt';

let common: ReadonlySet<string> | undefined;

/** The shipped list of common passwords, lower-cased; found from the source or the built copy. */
export function commonPasswords(): ReadonlySet<string> {
  if (common !== undefined) return common;
  const path = packageFile(LIST);
  if (path === undefined) throw new Error(`${LIST} is missing from the package`);
  const lines = readFileSync(path, 'utf8').split('\n');
  common = new Set(lines.map((l) => l.trim().toLowerCase()).filter((l) => l !== '' && !l.startsWith('#')));
  return common;
}

/** Nothing a person could see: whitespace, control and format (zero-width, bidi) characters. */
const INVISIBLE_ONLY = /^[\p{White_Space}\p{Cc}\p{Cf}]*$/u;

/**
 * The first policy rule `password` breaks, as a message ending a sentence; undefined if none.
 * `current` is the account's current password when the caller knows it in clear (change-password
 * has just been sent it); where only its hash is known, the caller checks that rule itself
 * (`SAME_AS_CURRENT`).
 */
export function passwordPolicyViolation(password: string, username: string, current?: string): string | undefined {
  const chars = [...password]; // code points, as a person counts characters
  if (chars.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  if (chars.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters long`;
  if (INVISIBLE_ONLY.test(password)) return 'must not consist only of spaces or control characters';
  const lower = password.toLowerCase();
  if (new Set([...lower]).size === 1) return 'must not be one character repeated';
  if (lower === username.toLowerCase()) return 'must not be the same as the username';
  if (current !== undefined && password === current) return SAME_AS_CURRENT;
  if (commonPasswords().has(lower)) return 'is too common: it is on the list of common passwords';
  return undefined;
}

export const SAME_AS_CURRENT = 'must not be the same as the current password';
