import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { Bus } from '../pubsub.js';
import type { Db } from '../storage/db.js';
import { ACCESS_TOKEN_TTL_SECONDS, SIGNING_KEY_ROTATE_AFTER_MS } from './settings.js';

export const SIGNING_ALG = 'ES256';
/** Tokens from a retired key stay verifiable this much longer than their lifetime (clock skew). */
const RETIRED_KEY_GRACE_MS = ACCESS_TOKEN_TTL_SECONDS * 1000 + 5 * 60 * 1000;
/**
 * How long a process signs with the key it last read before looking for a newer one. With a bus,
 * a rotation elsewhere is pushed at once and this is only the fallback.
 */
const SIGNER_REFRESH_MS = 60 * 1000;
const ROTATION_LOCK = 7_031_944; // distinct from the migration (…942) and bootstrap (…943) locks

type CryptoKeyLike = Awaited<ReturnType<typeof importJWK>>;
export interface Signer {
  kid: string;
  key: CryptoKeyLike;
}

const KeyRowSchema = z.object({
  kid: z.string(),
  private_jwk: z.record(z.string(), z.unknown()),
  created_at: z.date(),
});

/**
 * JWT signing keys, generated on first use and kept in the database so every process signs and
 * verifies with the same set. Private keys are stored as JWKs in the database: whoever can read
 * the database can mint tokens (see docs/service.md).
 */
export class KeyStore {
  private signer: { value: Signer; createdAt: number; readAt: number } | undefined;
  private readonly publicKeys = new Map<string, CryptoKeyLike>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly bus?: Bus,
  ) {
    // Another process rotated: sign with its new key from the next token on. Verification needs
    // nothing: an unknown kid is looked up in the database (publicKey).
    bus?.subscribe('keys', () => {
      this.signer = undefined;
    });
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
    const value = { kid: row.kid, key: await importJWK(row.private_jwk as JWK, SIGNING_ALG) };
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
        `INSERT INTO signing_keys (kid, alg, public_jwk, private_jwk, created_at) VALUES ($1, $2, $3::jsonb, $4::jsonb, $5)`,
        [kid, SIGNING_ALG, JSON.stringify({ ...publicJwk, kid }), JSON.stringify(privateJwk), now.toISOString()],
      );
      return true;
    });
    this.signer = undefined;
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

  /** The public key with this `kid`, or undefined; keys never change, so they are cached forever. */
  async publicKey(kid: string): Promise<CryptoKeyLike | undefined> {
    const cached = this.publicKeys.get(kid);
    if (cached !== undefined) return cached;
    const rows = await this.db.query<{ public_jwk: JWK }>('SELECT public_jwk FROM signing_keys WHERE kid = $1', [kid]);
    const jwk = rows[0]?.public_jwk;
    if (jwk === undefined) return undefined;
    const key = await importJWK(jwk, SIGNING_ALG);
    this.publicKeys.set(kid, key);
    return key;
  }

  private async newestActiveKey(): Promise<z.infer<typeof KeyRowSchema> | undefined> {
    const rows = await this.db.query<unknown>(
      'SELECT kid, private_jwk, created_at FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, kid LIMIT 1',
    );
    return rows[0] === undefined ? undefined : KeyRowSchema.parse(rows[0]);
  }
}
