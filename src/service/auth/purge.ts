import type { Clock } from '../clock.js';
import type { Queryable } from '../storage/db.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './settings.js';

export interface Purged {
  refreshTokens: number;
  challenges: number;
  resetCodes: number;
  throttleCounters: number;
}

/**
 * Deletes rows that can no longer matter. A refresh token row is kept for a day (the access
 * token lifetime) past its expiry, because access tokens minted just before expiry still look it
 * up to learn whether it was revoked.
 */
export async function purgeExpired(db: Queryable, clock: Clock, throttleWindowMs: number): Promise<Purged> {
  const now = clock.now().getTime();
  const at = (ms: number) => new Date(ms).toISOString();
  const count = async (sql: string, cutoff: string) => (await db.query(`${sql} RETURNING 1`, [cutoff])).length;
  return {
    refreshTokens: await count('DELETE FROM refresh_tokens WHERE expires_at < $1', at(now - ACCESS_TOKEN_TTL_SECONDS * 1000)),
    challenges: await count('DELETE FROM password_challenges WHERE expires_at < $1', at(now)),
    resetCodes: await count('DELETE FROM password_reset_codes WHERE expires_at < $1', at(now)),
    throttleCounters: await count('DELETE FROM auth_throttle WHERE window_start < $1', at(now - throttleWindowMs)),
  };
}
