import { addMs, type Clock } from '../clock.js';
import type { Queryable } from '../storage/db.js';
import { RESET_CODE_TTL_MS } from './settings.js';

/**
 * Password reset codes: at most one live code per account (a new one replaces it), stored as an
 * argon2id hash. How many times a code may be tried is the limiter's business (service.ts), not a
 * column here: that way every confirmation attempt writes the same rows whether or not a code is
 * pending, and the reply takes the same time. (The table's `attempts` column, from before, stays 0.)
 */

/**
 * Stores `codeHash` as the account's live code, in one statement that is the same whether or not
 * `username` names an enabled account (it then writes nothing). Returns where to mail the code.
 */
export async function storeResetCode(
  db: Queryable,
  clock: Clock,
  username: string,
  codeHash: string,
): Promise<{ username: string; email: string } | undefined> {
  const now = clock.now();
  const rows = await db.query<{ username: string; email: string }>(
    `WITH target AS (SELECT id, username, email FROM accounts WHERE username = $1 AND disabled_at IS NULL),
          stored AS (
            INSERT INTO password_reset_codes (account_id, code_hash, created_at, expires_at, attempts, used_at)
            SELECT id, $2, $3, $4, 0, NULL FROM target
            ON CONFLICT (account_id) DO UPDATE SET code_hash = $2, created_at = $3, expires_at = $4, attempts = 0, used_at = NULL
            RETURNING account_id)
     SELECT t.username, t.email FROM target t JOIN stored s ON s.account_id = t.id`,
    [username, codeHash, now.toISOString(), addMs(now, RESET_CODE_TTL_MS).toISOString()],
  );
  return rows[0];
}

export interface ResetTarget {
  accountId: string;
  disabled: boolean;
  /** The hash of the live code; null when none is pending. */
  codeHash: string | null;
}

/** The account named `username` and its live code, if any; one read, the same for every name. */
export async function findResetTarget(db: Queryable, clock: Clock, username: string): Promise<ResetTarget | undefined> {
  const rows = await db.query<ResetTarget>(
    `SELECT a.id AS "accountId", a.disabled_at IS NOT NULL AS disabled, c.code_hash AS "codeHash"
       FROM accounts a
       LEFT JOIN password_reset_codes c ON c.account_id = a.id AND c.used_at IS NULL AND c.expires_at > $2
      WHERE a.username = $1`,
    [username, clock.now().toISOString()],
  );
  return rows[0];
}

/** Marks the code used; false when it was used or replaced meanwhile (a concurrent confirmation). */
export async function consumeResetCode(tx: Queryable, clock: Clock, accountId: string, codeHash: string): Promise<boolean> {
  const rows = await tx.query(
    'UPDATE password_reset_codes SET used_at = $3 WHERE account_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING account_id',
    [accountId, codeHash, clock.now().toISOString()],
  );
  return rows.length > 0;
}
