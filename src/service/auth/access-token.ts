import { errors, jwtVerify } from 'jose';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import { forbidden, unauthorized } from '../errors.js';
import type { Bus } from '../pubsub.js';
import type { Db } from '../storage/db.js';
import { ClaimsCache } from './claims-cache.js';
import { KEY_ID, SIGNING_ALG, type KeyStore } from './keys.js';
import { refreshTokenState } from './refresh-tokens.js';
import { DEFAULT_REVOCATION_CACHE_MS } from './settings.js';

export const AccessClaimsSchema = z.object({
  // Both are uuids (accounts.id, refresh_tokens.id): anything else is no token of ours, and must
  // not reach a uuid column as a query parameter (a 500 there).
  sub: z.uuid(),
  username: z.string(),
  token_use: z.literal('access'),
  rti: z.uuid(),
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
/** Ours are about 600 characters; a longer string is not worth decoding. */
export const MAX_TOKEN_CHARS = 4096;
/** A compact JWS: three base64url parts. */
const COMPACT_JWS = /^([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/**
 * The protected header our tokens carry, and nothing else: `crit`, `jku`, `x5u`, `jwk`, a `kid`
 * that is no thumbprint (a NUL in it was a 500), another `alg` — all refused before any lookup.
 */
const HeaderSchema = z.strictObject({ alg: z.literal(SIGNING_ALG), kid: z.string().regex(KEY_ID), typ: z.literal('JWT').optional() });

/** The `kid` of a token whose header is exactly one of ours; undefined for anything else. */
export function tokenKeyId(token: string): string | undefined {
  if (token.length > MAX_TOKEN_CHARS) return undefined;
  const header = COMPACT_JWS.exec(token)?.[1];
  if (header === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = HeaderSchema.safeParse(json);
  return parsed.success ? parsed.data.kid : undefined;
}

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

  /**
   * The refresh token the access token came from is not revoked, its account not disabled, and
   * that account is the one the token names: a token signed with a stolen key, or by a bug, cannot
   * borrow a live `rti` to speak for another account.
   */
  const isLive = async (claims: AccessClaims): Promise<void> => {
    const now = clock.now().getTime();
    const key = `${claims.rti} ${claims.sub} ${claims.username}`;
    const checkedAt = liveSince.get(key);
    if (checkedAt !== undefined && now - checkedAt < cacheMs && now >= checkedAt) return;
    const asked = generation;
    const state = await refreshTokenState(db, claims.rti);
    if (state.revoked || state.accountId !== claims.sub || state.username !== claims.username) throw unauthorized(INVALID);
    if (state.accountDisabled) throw forbidden('account is disabled');
    if (cacheMs > 0 && asked === generation) {
      liveSince.delete(key);
      if (liveSince.size >= MAX_CACHE_ENTRIES) liveSince.delete(liveSince.keys().next().value as string);
      liveSince.set(key, now);
    }
  };

  return {
    async verify(token) {
      const known = verified.get(token);
      if (known !== undefined) {
        await isLive(known);
        return known;
      }
      // Every header field checked before anything is looked up.
      const kid = tokenKeyId(token);
      if (kid === undefined) throw unauthorized(INVALID);
      let payload: unknown;
      try {
        const key = await keys.publicKey(kid);
        if (key === undefined) throw unauthorized(INVALID);
        ({ payload } = await jwtVerify(token, key, { issuer, algorithms: [SIGNING_ALG], currentDate: clock.now() }));
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError || error instanceof SyntaxError) throw unauthorized(INVALID);
        throw error;
      }
      const claims = AccessClaimsSchema.safeParse(payload);
      if (!claims.success) throw unauthorized(INVALID); // an id token, or not one of ours
      await isLive(claims.data);
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
