import type { Clock } from '../clock.js';
import type { Queryable } from '../storage/db.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './settings.js';

export interface Purged {
  refreshTokens: number;
  challenges: number;
  resetCodes: number;
  throttleCounters: number;
  /** Sign-in addresses no longer familiar (familiar-addresses.ts). */
  familiarAddresses: number;
}

/**
 * Deletes rows that can no longer matter. A refresh token row is kept for a day (the access
 * token lifetime) past its expiry, because access tokens minted just before expiry still look it
 * up to learn whether it was revoked. A throttle counter goes when its own window has ended (each
 * row records it, windows differ in length). A sign-in address goes once it is no longer familiar
 * (`familiarForMs` after the sign-in).
 */
export async function purgeExpired(db: Queryable, clock: Clock, familiarForMs: number): Promise<Purged> {
  const now = clock.now().getTime();
  const at = (ms: number) => new Date(ms).toISOString();
  const count = async (sql: string, cutoff: string) => (await db.query(`${sql} RETURNING 1`, [cutoff])).length;
  return {
    refreshTokens: await count('DELETE FROM refresh_tokens WHERE expires_at < $1', at(now - ACCESS_TOKEN_TTL_SECONDS * 1000)),
    challenges: await count('DELETE FROM password_challenges WHERE expires_at < $1', at(now)),
    resetCodes: await count('DELETE FROM password_reset_codes WHERE expires_at < $1', at(now)),
    // Locks only counters nobody holds, so it never waits on (or deadlocks with) an attempt.
    throttleCounters: await count(
      `WITH ended AS (SELECT key FROM auth_throttle WHERE window_end <= $1 FOR UPDATE SKIP LOCKED)
       DELETE FROM auth_throttle t USING ended WHERE t.key = ended.key`,
      at(now),
    ),
    familiarAddresses: await count('DELETE FROM account_addresses WHERE signed_in_at <= $1', at(now - familiarForMs)),
  };
}
