import { randomUUID } from 'node:crypto';
import { addMs, type Clock } from '../clock.js';
import type { Queryable } from '../storage/db.js';
import type { Account } from './accounts.js';
import { randomToken, sha256 } from './secrets.js';
import { REFRESH_TOKEN_MAX_USES, REFRESH_TOKEN_TTL_MS } from './settings.js';

export interface IssuedRefreshToken {
  id: string;
  token: string;
}

export async function issueRefreshToken(db: Queryable, clock: Clock, accountId: string): Promise<IssuedRefreshToken> {
  const token = randomToken();
  const id = randomUUID();
  const now = clock.now();
  await db.query(
    `INSERT INTO refresh_tokens (id, account_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
    [id, accountId, sha256(token), now.toISOString(), addMs(now, REFRESH_TOKEN_TTL_MS).toISOString()],
  );
  return { id, token };
}

export type RefreshOutcome =
  | { kind: 'ok'; refreshTokenId: string; account: Account }
  | { kind: 'invalid' }
  | { kind: 'disabled' }
  | { kind: 'exhausted' };

/**
 * Spends one use of a refresh token. The use is counted by a single conditional UPDATE, so
 * concurrent refreshes can never exceed the limit: with N uses left, exactly N of any number of
 * simultaneous calls succeed. Only when nothing was updated is the row read to say why.
 */
export async function spendRefreshToken(db: Queryable, clock: Clock, token: string, username: string): Promise<RefreshOutcome> {
  const hash = sha256(token);
  const now = clock.now().toISOString();
  const spent = await db.query<Account & { refresh_token_id: string }>(
    `UPDATE refresh_tokens r SET uses = r.uses + 1
       FROM accounts a
      WHERE r.account_id = a.id AND r.token_hash = $1 AND a.username = $2
        AND r.revoked_at IS NULL AND r.expires_at > $3 AND r.uses < $4 AND a.disabled_at IS NULL
      RETURNING r.id AS refresh_token_id, a.id, a.username, a.email, a.password_hash,
                a.must_change_password, a.disabled_at, a.created_at`,
    [hash, username, now, REFRESH_TOKEN_MAX_USES],
  );
  const row = spent[0];
  if (row !== undefined) {
    const { refresh_token_id, ...account } = row;
    return { kind: 'ok', refreshTokenId: refresh_token_id, account };
  }
  const found = await db.query<{ uses: number; revoked: boolean; expired: boolean; disabled: boolean }>(
    `SELECT r.uses, r.revoked_at IS NOT NULL AS revoked, r.expires_at <= $3 AS expired, a.disabled_at IS NOT NULL AS disabled
       FROM refresh_tokens r JOIN accounts a ON a.id = r.account_id
      WHERE r.token_hash = $1 AND a.username = $2`,
    [hash, username, now],
  );
  const state = found[0];
  if (state === undefined || state.revoked || state.expired) return { kind: 'invalid' };
  if (state.disabled) return { kind: 'disabled' };
  return { kind: 'exhausted' };
}

/** Revokes the token; returns its id, or undefined when no such token exists. Idempotent. */
export async function revokeRefreshToken(db: Queryable, clock: Clock, token: string): Promise<string | undefined> {
  const rows = await db.query<{ id: string }>(
    'UPDATE refresh_tokens SET revoked_at = COALESCE(revoked_at, $2) WHERE token_hash = $1 RETURNING id',
    [sha256(token), clock.now().toISOString()],
  );
  return rows[0]?.id;
}

export interface RefreshTokenState {
  revoked: boolean;
  accountDisabled: boolean;
  /** The account the refresh token was issued to (undefined when the token is gone). */
  accountId?: string;
  username?: string;
}

/**
 * What an access token's verifier needs: is its refresh token revoked (or gone), its account
 * disabled, and whose is it (an access token must name that account)?
 */
export async function refreshTokenState(db: Queryable, refreshTokenId: string): Promise<RefreshTokenState> {
  const rows = await db.query<{ revoked: boolean; disabled: boolean; account_id: string; username: string }>(
    `SELECT r.revoked_at IS NOT NULL AS revoked, a.disabled_at IS NOT NULL AS disabled, a.id AS account_id, a.username
       FROM refresh_tokens r JOIN accounts a ON a.id = r.account_id WHERE r.id = $1`,
    [refreshTokenId],
  );
  const row = rows[0];
  // A deleted row (account deleted) counts as revoked.
  if (row === undefined) return { revoked: true, accountDisabled: false };
  return { revoked: row.revoked, accountDisabled: row.disabled, accountId: row.account_id, username: row.username };
}
