/**
 * Access-token claims whose signature already verified, per token, so that a client sending the
 * same token on every request pays ES256 verification (~0.2 ms) once rather than per request.
 *
 * Only what the signature proves is kept: the claims never change for a token, and our public
 * keys are immutable (KeyStore caches them forever too), so a cached answer is the one a new
 * verification would give until the token expires. Whether the token was revoked or its account
 * disabled is NOT cached here: the verifier asks that on every request, through its own
 * revocation cache, so revocation keeps exactly its guarantees (at once in the process that
 * revokes, at once elsewhere by push, within `revocationCacheMs` if a push is lost). Entries are also dropped after `maxAgeMs`, so
 * nothing about a token is reused longer than the revocation window even if that changes.
 */
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.js';

export interface ClaimsCacheOptions {
  clock: Clock;
  /** Longest reuse of one verification, whatever the token's expiry; 0 keeps nothing. */
  maxAgeMs: number;
  /** Tokens remembered at most; the least recently used go first. */
  maxTokens?: number;
}

interface Entry<C> {
  claims: C;
  /** Epoch ms: the first instant the entry is no longer valid. */
  until: number;
  verifiedAt: number;
}

/** Claims with a JWT `exp` (epoch seconds). */
export class ClaimsCache<C extends { exp: number }> {
  readonly #clock: Clock;
  readonly #maxAgeMs: number;
  readonly #entries: LRUCache<string, Entry<C>>;

  constructor(options: ClaimsCacheOptions) {
    this.#clock = options.clock;
    this.#maxAgeMs = options.maxAgeMs;
    // Keyed by the token itself: only tokens whose signature verified get in, so an attacker
    // cannot fill it with made-up strings, and a lookup is one string hash.
    this.#entries = new LRUCache({ max: options.maxTokens ?? 10_000 });
  }

  /** The claims of a token verified earlier and still valid now, else undefined. */
  get(token: string): C | undefined {
    const entry = this.#entries.get(token);
    if (entry === undefined) return undefined;
    const now = this.#clock.now().getTime();
    // A clock set back makes the entry's age unknown: verify again.
    if (now < entry.verifiedAt || now >= entry.until) {
      this.#entries.delete(token);
      return undefined;
    }
    return entry.claims;
  }

  /** Remembers a token whose signature, issuer and expiry just verified; returns its claims. */
  remember(token: string, claims: C): C {
    if (this.#maxAgeMs <= 0) return claims;
    const now = this.#clock.now().getTime();
    // jose refuses a token once floor(now / 1000) >= exp: valid through the last ms before exp.
    const until = Math.min(claims.exp * 1000, now + this.#maxAgeMs);
    if (until > now) this.#entries.set(token, { claims, until, verifiedAt: now });
    return claims;
  }

  get size(): number {
    return this.#entries.size;
  }
}
