import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id with the OWASP parameters (m = 19 MiB, t = 2, p = 1). The library's default algorithm
 * is argon2id; it is not named here because it is a `const enum`, which isolated modules cannot
 * import (a test checks the `$argon2id$` prefix).
 */
const OWASP = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashSecret(secret: string): Promise<string> {
  return hash(secret, OWASP);
}

let dummy: Promise<string> | undefined;

/**
 * Verifies `secret` against `stored`; with no stored hash (unknown account, no code) it verifies
 * against a dummy hash and returns false, so that both cases cost the same time.
 */
export async function verifySecret(stored: string | undefined, secret: string): Promise<boolean> {
  if (stored === undefined) {
    dummy ??= hashSecret('dummy password for unknown accounts');
    await verify(await dummy, secret).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, secret);
  } catch {
    return false;
  }
}
