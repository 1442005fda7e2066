import { decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import { forbidden, unauthorized } from '../errors.js';
import type { Bus } from '../pubsub.js';
import type { Db } from '../storage/db.js';
import { ClaimsCache } from './claims-cache.js';
import { SIGNING_ALG, type KeyStore } from './keys.js';
import { refreshTokenState } from './refresh-tokens.js';
import { DEFAULT_REVOCATION_CACHE_MS } from './settings.js';

export const AccessClaimsSchema = z.object({
  sub: z.string(),
  username: z.string(),
  token_use: z.literal('access'),
  rti: z.string(),
  jti: z.string(),
  iat: z.number(),
  exp: z.number(),
  iss: z.string(),
});
export type AccessClaims = z.infer<typeof AccessClaimsSchema>;

export interface AccessTokenVerifier {
  /**
   * The claims of a valid access token. Throws HttpError 401 when the token is malformed, not
   * signed by one of our keys, expired, or its refresh token was revoked; 403 when the account
   * is disabled.
   */
  verify(token: string): Promise<AccessClaims>;
  /**
   * Drops cached "not revoked" answers, here and (through the bus) in every other process;
   * called after this process revokes anything or disables an account.
   */
  forgetCachedState(): void;
}

export interface VerifierOptions {
  db: Db;
  keys: KeyStore;
  clock: Clock;
  issuer: string;
  /**
   * How long a "not revoked" answer is reused without asking the database. With a bus, other
   * processes drop their answers when told, so this only bounds staleness when a push is lost
   * (the bus reconnecting); without one, it bounds how long another process may still accept a
   * token after revocation. 0 disables the cache.
   */
  revocationCacheMs?: number;
  /** Carries revocations between processes (pubsub.ts); omitted, other processes rely on the poll alone. */
  bus?: Bus;
}

const MAX_CACHE_ENTRIES = 10_000;
const INVALID = 'invalid, expired or revoked access token';

/**
 * Verifies access tokens for any route that needs one (change-password here; the content API
 * next): signature against the keys in storage, issuer, expiry by the injected clock, and the
 * revocation state of the refresh token the access token came from.
 */
export function createAccessTokenVerifier(options: VerifierOptions): AccessTokenVerifier {
  const { db, keys, clock, issuer } = options;
  const cacheMs = options.revocationCacheMs ?? DEFAULT_REVOCATION_CACHE_MS;
  const liveSince = new Map<string, number>();
  // Bumped on every forget: an answer read from the database before a revocation was announced
  // must not be cached after it, or it would outlive the push by a whole window.
  let generation = 0;
  const forget = (): void => {
    generation += 1;
    liveSince.clear();
  };
  options.bus?.subscribe('revoked', forget);
  // Signature checks only (claims-cache.ts); revocation is still asked below on every call.
  const verified = new ClaimsCache<AccessClaims>({ clock, maxAgeMs: cacheMs });

  const isLive = async (rti: string): Promise<void> => {
    const now = clock.now().getTime();
    const checkedAt = liveSince.get(rti);
    if (checkedAt !== undefined && now - checkedAt < cacheMs && now >= checkedAt) return;
    const asked = generation;
    const state = await refreshTokenState(db, rti);
    if (state.revoked) throw unauthorized(INVALID);
    if (state.accountDisabled) throw forbidden('account is disabled');
    if (cacheMs > 0 && asked === generation) {
      liveSince.delete(rti);
      if (liveSince.size >= MAX_CACHE_ENTRIES) liveSince.delete(liveSince.keys().next().value as string);
      liveSince.set(rti, now);
    }
  };

  return {
    async verify(token) {
      const known = verified.get(token);
      if (known !== undefined) {
        await isLive(known.rti);
        return known;
      }
      let payload: unknown;
      try {
        const kid = decodeProtectedHeader(token).kid;
        const key = kid === undefined ? undefined : await keys.publicKey(kid);
        if (key === undefined) throw unauthorized(INVALID);
        ({ payload } = await jwtVerify(token, key, { issuer, algorithms: [SIGNING_ALG], currentDate: clock.now() }));
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError || error instanceof SyntaxError) throw unauthorized(INVALID);
        throw error;
      }
      const claims = AccessClaimsSchema.safeParse(payload);
      if (!claims.success) throw unauthorized(INVALID); // an id token, or not one of ours
      await isLive(claims.data.rti);
      return verified.remember(token, claims.data);
    },
    forgetCachedState: () => {
      forget();
      // A lost publish leaves the others on their poll window: the documented fallback, so the
      // revocation (already committed) is not failed for it.
      options.bus?.publish('revoked', '').catch(() => {});
    },
  };
}
