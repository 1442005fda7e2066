import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Queryable } from '../storage/db.js';

export interface Account {
  id: string;
  username: string;
  email: string;
  password_hash: string;
  must_change_password: boolean;
  disabled_at: Date | null;
  created_at: Date;
}

/** Usernames are compared lower-cased and trimmed, however they were typed. */
export function normalizeUsername(raw: string): string {
  return raw.trim().toLowerCase();
}

const COLUMNS = 'id, username, email, password_hash, must_change_password, disabled_at, created_at';

export async function findAccountByUsername(db: Queryable, username: string): Promise<Account | undefined> {
  const rows = await db.query<Account>(`SELECT ${COLUMNS} FROM accounts WHERE username = $1`, [username]);
  return rows[0];
}

export async function findAccountById(db: Queryable, id: string): Promise<Account | undefined> {
  const rows = await db.query<Account>(`SELECT ${COLUMNS} FROM accounts WHERE id = $1`, [id]);
  return rows[0];
}

export interface NewAccount {
  username: string;
  email: string;
  passwordHash: string;
  mustChangePassword: boolean;
}

export class AccountExistsError extends Error {}

export async function insertAccount(db: Queryable, clock: Clock, account: NewAccount): Promise<Account> {
  const now = clock.now().toISOString();
  const rows = await db.query<Account>(
    `INSERT INTO accounts (id, username, email, password_hash, must_change_password, created_at, password_changed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)
     ON CONFLICT (username) DO NOTHING
     RETURNING ${COLUMNS}`,
    [randomUUID(), account.username, account.email, account.passwordHash, account.mustChangePassword, now],
  );
  const created = rows[0];
  if (created === undefined) throw new AccountExistsError(`account "${account.username}" already exists`);
  return created;
}

export async function listAccounts(db: Queryable): Promise<Account[]> {
  return db.query<Account>(`SELECT ${COLUMNS} FROM accounts ORDER BY username`);
}

/** Returns false when no such account exists. */
export async function setAccountDisabled(db: Queryable, clock: Clock, username: string, disabled: boolean): Promise<boolean> {
  const rows = await db.query(
    'UPDATE accounts SET disabled_at = $2 WHERE username = $1 RETURNING id',
    [username, disabled ? clock.now().toISOString() : null],
  );
  return rows.length > 0;
}

/** Deletes the account with its tokens, codes and sessions (ON DELETE CASCADE). */
export async function deleteAccount(db: Queryable, username: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM accounts WHERE username = $1 RETURNING id', [username]);
  return rows.length > 0;
}

/**
 * Sets a new password and revokes every refresh token of the account, in the caller's
 * transaction: after a password change, sessions started with the old password end.
 */
export async function replacePassword(tx: Queryable, clock: Clock, accountId: string, passwordHash: string): Promise<void> {
  const now = clock.now().toISOString();
  await tx.query(
    `UPDATE accounts SET password_hash = $2, must_change_password = false, password_changed_at = $3 WHERE id = $1`,
    [accountId, passwordHash, now],
  );
  await tx.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE account_id = $1 AND revoked_at IS NULL', [accountId, now]);
}
