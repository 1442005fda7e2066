import { createHash, randomBytes, randomInt } from 'node:crypto';

/** 256 random bits, URL-safe: refresh tokens and challenge sessions. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A numeric one-time code, as people type it from an e-mail. */
export function randomDigits(length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += String(randomInt(10));
  return code;
}

/**
 * Lookup hash of a high-entropy secret. A fast hash is right here: with 256 random bits there
 * is nothing to brute-force, and the lookup by hash is an index probe, not a comparison of secrets.
 */
export function sha256(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}
