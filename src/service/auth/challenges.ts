import { addMs, type Clock } from '../clock.js';
import type { Queryable } from '../storage/db.js';
import { randomToken, sha256 } from './secrets.js';
import { CHALLENGE_TTL_MS } from './settings.js';

/** NEW_PASSWORD_REQUIRED sessions: 256 random bits, stored hashed, single use, short-lived. */
export async function createChallenge(db: Queryable, clock: Clock, accountId: string): Promise<string> {
  const session = randomToken();
  await db.query('INSERT INTO password_challenges (session_hash, account_id, expires_at) VALUES ($1, $2, $3)', [
    sha256(session),
    accountId,
    addMs(clock.now(), CHALLENGE_TTL_MS).toISOString(),
  ]);
  return session;
}

export interface OpenChallenge {
  accountId: string;
  passwordHash: string;
  disabled: boolean;
}

/** The live session `session` of `username`, without using it up. */
export async function findChallenge(db: Queryable, clock: Clock, session: string, username: string): Promise<OpenChallenge | undefined> {
  const rows = await db.query<OpenChallenge>(
    `SELECT c.account_id AS "accountId", a.password_hash AS "passwordHash", a.disabled_at IS NOT NULL AS disabled
       FROM password_challenges c JOIN accounts a ON a.id = c.account_id
      WHERE c.session_hash = $1 AND a.username = $2 AND c.used_at IS NULL AND c.expires_at > $3`,
    [sha256(session), username, clock.now().toISOString()],
  );
  return rows[0];
}

/**
 * Uses the session up, in one conditional UPDATE: however many requests race with one session,
 * exactly one gets true.
 */
export async function consumeChallenge(db: Queryable, clock: Clock, session: string): Promise<boolean> {
  const now = clock.now().toISOString();
  const rows = await db.query(
    `UPDATE password_challenges SET used_at = $2 WHERE session_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING 1`,
    [sha256(session), now],
  );
  return rows.length > 0;
}
