import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { Bus } from '../pubsub.js';
import type { Db } from '../storage/db.js';
import type { KeySecret } from './key-secret.js';
import { ACCESS_TOKEN_TTL_SECONDS, SIGNING_KEY_ROTATE_AFTER_MS } from './settings.js';

export const SIGNING_ALG = 'ES256';
/** Tokens from a retired key stay verifiable this much longer than their lifetime (clock skew). */
const RETIRED_KEY_GRACE_MS = ACCESS_TOKEN_TTL_SECONDS * 1000 + 5 * 60 * 1000;
/**
 * How long a process signs with the key it last read before looking for a newer one. With a bus,
 * a rotation elsewhere is pushed at once and this is only the fallback.
 */
const SIGNER_REFRESH_MS = 60 * 1000;
/**
 * A token naming a key this process does not know makes it read the key list again, at most this
 * often: a stream of made-up `kid`s costs one query per second, not one per request. A key
 * rotated in by another process is pushed (bus) and read at once; without the push, its tokens
 * are refused for at most this long.
 */
const KEY_LIST_REFRESH_MS = 1000;
const ROTATION_LOCK = 7_031_944; // distinct from the migration (…942) and bootstrap (…943) locks

/**
 * Our key ids are RFC 7638 SHA-256 thumbprints: 43 base64url characters. Anything else cannot
 * name one of our keys, so it is refused before any lookup (a NUL in it used to reach the database).
 */
export const KEY_ID = /^[A-Za-z0-9_-]{43}$/;

type CryptoKeyLike = Awaited<ReturnType<typeof importJWK>>;
export interface Signer {
  kid: string;
  key: CryptoKeyLike;
}

const KeyRowSchema = z.object({
  kid: z.string(),
  private_key_sealed: z.string(),
  created_at: z.date(),
});

/**
 * JWT signing keys, generated on first use and kept in the database so every process signs and
 * verifies with the same set. The private half is stored sealed under the deployment's key secret
 * (key-secret.ts), never in the clear: reading the database is not enough to mint tokens.
 */
export class KeyStore {
  private signer: { value: Signer; createdAt: number; readAt: number } | undefined;
  private readonly publicKeys = new Map<string, CryptoKeyLike>();
  /** When the key list was last read (clock ms), and the read in flight. */
  private listedAt: number | undefined;
  private listing: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly secret: KeySecret,
    private readonly bus?: Bus,
  ) {
    // Another process rotated: sign with its new key from the next token on, and read the key
    // list again at the first token that names a key we do not know.
    bus?.subscribe('keys', () => {
      this.signer = undefined;
      this.listedAt = undefined;
    });
  }

  /**
   * Seals every private key a version before this one stored in the clear, then retires them all
   * (rotates): new tokens are signed by a key that was never in the clear. Returns how many were
   * sealed. Run once at start, before the first signature.
   */
  async sealClearKeys(): Promise<number> {
    const sealed = await this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ROTATION_LOCK]);
      const clear = await tx.query<{ kid: string; private_jwk: JWK }>('SELECT kid, private_jwk FROM signing_keys WHERE private_jwk IS NOT NULL');
      for (const row of clear) {
        await tx.query('UPDATE signing_keys SET private_key_sealed = $2, private_jwk = NULL WHERE kid = $1', [row.kid, this.secret.seal(row.kid, JSON.stringify(row.private_jwk))]);
      }
      return clear.length;
    });
    if (sealed > 0) await this.rotate();
    return sealed;
  }

  /** The newest active key; creates one on first start and rotates it when it is old. */
  async currentSigner(): Promise<Signer> {
    const now = this.clock.now().getTime();
    const cached = this.signer;
    if (cached !== undefined && now - cached.readAt < SIGNER_REFRESH_MS && now - cached.createdAt < SIGNING_KEY_ROTATE_AFTER_MS) {
      return cached.value;
    }
    let row = await this.newestActiveKey();
    if (row === undefined || now - row.created_at.getTime() >= SIGNING_KEY_ROTATE_AFTER_MS) {
      await this.rotate(row?.kid ?? null);
      row = await this.newestActiveKey();
      if (row === undefined) throw new Error('no signing key after rotation');
    }
    const privateJwk = JSON.parse(this.secret.open(row.kid, row.private_key_sealed)) as JWK;
    const value = { kid: row.kid, key: await importJWK(privateJwk, SIGNING_ALG) };
    this.signer = { value, createdAt: row.created_at.getTime(), readAt: now };
    return value;
  }

  /**
   * Retires the active key and adds a fresh one, under an advisory lock so that processes
   * rotating at once add one key, not one each. `onlyIf`: null = only if no key is active yet,
   * a kid = only if that key is still the active one; omitted = always (manual rotation).
   */
  async rotate(onlyIf?: string | null): Promise<string> {
    const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
    const publicJwk = { ...(await exportJWK(publicKey)), alg: SIGNING_ALG, use: 'sig' };
    const kid = await calculateJwkThumbprint(publicJwk);
    const privateJwk = { ...(await exportJWK(privateKey)), alg: SIGNING_ALG, kid };
    const now = this.clock.now();
    const rotated = await this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ROTATION_LOCK]);
      const active = await tx.query<{ kid: string }>('SELECT kid FROM signing_keys WHERE retired_at IS NULL');
      // Someone else created or rotated while we waited for the lock: their key will do.
      if (onlyIf === null && active.length > 0) return false;
      if (typeof onlyIf === 'string' && !active.some((k) => k.kid === onlyIf)) return false;
      await tx.query('UPDATE signing_keys SET retired_at = $1 WHERE retired_at IS NULL', [now.toISOString()]);
      await tx.query('DELETE FROM signing_keys WHERE retired_at < $1', [new Date(now.getTime() - RETIRED_KEY_GRACE_MS).toISOString()]);
      await tx.query(
        `INSERT INTO signing_keys (kid, alg, public_jwk, private_key_sealed, created_at) VALUES ($1, $2, $3::jsonb, $4, $5)`,
        [kid, SIGNING_ALG, JSON.stringify({ ...publicJwk, kid }), this.secret.seal(kid, JSON.stringify(privateJwk)), now.toISOString()],
      );
      return true;
    });
    this.signer = undefined;
    if (rotated) this.publicKeys.set(kid, publicKey);
    // After the commit, so a process told reads the new key. Lost: the others find it within
    // SIGNER_REFRESH_MS, as before there was a push.
    if (rotated) await this.bus?.publish('keys', kid).catch(() => {});
    return kid;
  }

  /** The public keys that may have signed a still-valid token: the JWKS document's `keys`. */
  async publicJwks(): Promise<JWK[]> {
    const cutoff = new Date(this.clock.now().getTime() - RETIRED_KEY_GRACE_MS).toISOString();
    const rows = await this.db.query<{ public_jwk: JWK }>(
      'SELECT public_jwk FROM signing_keys WHERE retired_at IS NULL OR retired_at > $1 ORDER BY created_at DESC',
      [cutoff],
    );
    return rows.map((r) => r.public_jwk);
  }

  /**
   * The public key with this `kid`, or undefined. Keys never change, so they are kept forever; a
   * kid not known here makes the whole list be read again, at most once per KEY_LIST_REFRESH_MS
   * (and at once after a rotation was pushed), with concurrent callers sharing one read.
   */
  async publicKey(kid: string): Promise<CryptoKeyLike | undefined> {
    const known = this.publicKeys.get(kid);
    if (known !== undefined || !KEY_ID.test(kid)) return known;
    const now = this.clock.now().getTime();
    const last = this.listedAt;
    // A clock set back makes the age unknown: read again.
    if (this.listing === undefined && (last === undefined || now < last || now - last >= KEY_LIST_REFRESH_MS)) {
      this.listedAt = now;
      this.listing = this.readPublicKeys().finally(() => {
        this.listing = undefined;
      });
    }
    await this.listing;
    return this.publicKeys.get(kid);
  }

  private async readPublicKeys(): Promise<void> {
    const rows = await this.db.query<{ kid: string; public_jwk: JWK }>('SELECT kid, public_jwk FROM signing_keys');
    for (const row of rows) {
      if (!this.publicKeys.has(row.kid)) this.publicKeys.set(row.kid, await importJWK(row.public_jwk, SIGNING_ALG));
    }
  }

  private async newestActiveKey(): Promise<z.infer<typeof KeyRowSchema> | undefined> {
    const rows = await this.db.query<unknown>(
      'SELECT kid, private_key_sealed, created_at FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, kid LIMIT 1',
    );
    return rows[0] === undefined ? undefined : KeyRowSchema.parse(rows[0]);
  }
}
