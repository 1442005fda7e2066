/**
 * The secret the private signing keys are sealed under before they reach the database: whoever can
 * read the database (its files, its backups, a `pg_dump`, another role on the server) must not be
 * able to mint access tokens. AES-256-GCM, the key derived by HKDF-SHA-256 from the operator's
 * secret; the key's `kid` is the associated data, so a sealed key copied into another row opens
 * nowhere.
 *
 * Where the secret comes from, in order (docs/security.md, "Key material"):
 * 1. `WIKISTRUCT_KEY_SECRET` (at least 32 characters): what several machines on one database
 *    share, and what an operator keeps in a secret manager;
 * 2. `<data>/key-secret`: 256 random bits made on first start, mode 0600 from the moment it
 *    exists (written to a private temporary file, then linked into place, so no process ever sees
 *    it half-written or more open).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { requirePrivateFile, type PrivacyOptions } from '../storage/data-dir.js';

export const KEY_SECRET_ENV = 'WIKISTRUCT_KEY_SECRET';
export const KEY_SECRET_FILE = 'key-secret';
export const MIN_KEY_SECRET_CHARS = 32;
/** The sealed form's version: `v1.<secret id>.<iv>.<ciphertext and tag>`, base64url parts. */
const FORMAT = 'v1';
const SALT = 'wikistruct';

/** The secret is missing, malformed, or not the one a stored key was sealed under. */
export class KeySecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeySecretError';
  }
}

export class KeySecret {
  readonly #key: Buffer;
  /**
   * Names the secret without revealing anything of it (a separate HKDF output): a sealed key
   * records it, so a process given another secret says so instead of "decryption failed".
   */
  readonly id: string;

  /** `source` says where the secret came from, for messages: the variable's name or the file's path. */
  constructor(
    secret: string,
    readonly source: string,
  ) {
    if (secret.length < MIN_KEY_SECRET_CHARS) {
      throw new KeySecretError(`${source} must be at least ${MIN_KEY_SECRET_CHARS} characters (make one with \`openssl rand -base64 32\`)`);
    }
    const material = Buffer.from(secret, 'utf8');
    this.#key = Buffer.from(hkdfSync('sha256', material, SALT, 'signing-key encryption v1', 32));
    this.id = Buffer.from(hkdfSync('sha256', material, SALT, 'key-secret id v1', 9)).toString('base64url');
  }

  /** The private key (a JWK's JSON) sealed for the row of `kid`. */
  seal(kid: string, plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(`${FORMAT}.${kid}`, 'utf8'));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [FORMAT, this.id, iv.toString('base64url'), data.toString('base64url')].join('.');
  }

  /** Opens what `seal` made for `kid`; throws KeySecretError with what to do when it cannot. */
  open(kid: string, sealed: string): string {
    const [format, id, iv, data, extra] = sealed.split('.');
    if (format !== FORMAT || id === undefined || iv === undefined || data === undefined || extra !== undefined) {
      throw new KeySecretError(`the sealed private key of signing key ${kid} is not in a form this version reads`);
    }
    if (id !== this.id) throw new KeySecretError(otherSecret(kid, this.source));
    const bytes = Buffer.from(data, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(`${FORMAT}.${kid}`, 'utf8'));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      // Same id, no authentic plaintext: the row was altered (or moved to another kid).
      throw new KeySecretError(`the sealed private key of signing key ${kid} does not open under ${this.source}: the row was altered`);
    }
  }
}

function otherSecret(kid: string, source: string): string {
  return (
    `signing key ${kid} was sealed under another key secret than ${source}: give every process on this database the same ` +
    `${KEY_SECRET_ENV} (or the same data directory's ${KEY_SECRET_FILE} file). If that secret is lost, delete the rows of ` +
    'the signing_keys table and start again: a new key is made, and every client must refresh its access token'
  );
}

export interface KeySecretSource extends PrivacyOptions {
  /** `WIKISTRUCT_KEY_SECRET` when set (empty counts as unset). */
  envSecret?: string | undefined;
  /** Where `key-secret` is kept (and made, on first start) when the variable is not set. */
  dataDir: string;
}

/** The deployment's key secret: the variable's, else the data directory's file (made on first use). */
export function loadKeySecret(options: KeySecretSource): KeySecret {
  if (options.envSecret !== undefined && options.envSecret !== '') return new KeySecret(options.envSecret, KEY_SECRET_ENV);
  const path = join(options.dataDir, KEY_SECRET_FILE);
  if (!existsSync(path)) createSecretFile(path);
  requirePrivateFile(path, 'the key secret', options);
  return new KeySecret(readFileSync(path, 'utf8').trim(), path);
}

/**
 * Writes 256 random bits to a temporary file created 0600, then links it to `path`. link() fails
 * when `path` exists, so two processes starting at once keep the first one's secret, and no
 * reader ever finds the file empty or half-written.
 */
function createSecretFile(path: string): void {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, `${randomBytes(32).toString('base64url')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
}
