/**
 * The client addresses an account signed in from lately, for the throttle's backstop
 * (service.ts): failures from a familiar address are held by the per-(account, address) counter
 * only, so an attacker spreading guesses over many addresses fills the backstop for strangers,
 * not for the owner where they usually sign in.
 */
import type { Clock } from '../clock.js';
import type { Queryable } from '../storage/db.js';

/**
 * Whether `username` signed in from `address` within `withinMs`. One statement, the same whether
 * or not the account exists (by name, not id), so it tells timing nothing.
 */
export async function isFamiliarAddress(db: Queryable, clock: Clock, username: string, address: string, withinMs: number): Promise<boolean> {
  const rows = await db.query<{ familiar: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM account_addresses f JOIN accounts a ON a.id = f.account_id
        WHERE a.username = $1 AND f.address = $2 AND f.signed_in_at > $3) AS familiar`,
    [username, address, new Date(clock.now().getTime() - withinMs).toISOString()],
  );
  return rows[0]?.familiar === true;
}

/** Records a successful sign-in of the account from `address`. */
export async function rememberAddress(db: Queryable, clock: Clock, accountId: string, address: string): Promise<void> {
  await db.query(
    `INSERT INTO account_addresses (account_id, address, signed_in_at) VALUES ($1, $2, $3)
     ON CONFLICT (account_id, address) DO UPDATE SET signed_in_at = EXCLUDED.signed_in_at`,
    [accountId, address, clock.now().toISOString()],
  );
}
