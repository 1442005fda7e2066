import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { Queryable } from '../storage/db.js';
import { AccountExistsError, deleteAccount, listAccounts, setAccountDisabled } from './accounts.js';
import { createAccount, InvalidAccountError, UsernameSchema } from './admin.js';

/**
 * The `wikistruct user` actions as data, so that the same code runs them on the database
 * directly or, while a server holds the embedded database, inside that server (admin-socket.ts).
 */
export const AccountCommandSchema = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('add'),
    username: z.string(),
    email: z.string(),
    password: z.string().optional(),
    temporary: z.boolean(),
  }),
  z.strictObject({ action: z.literal('list') }),
  z.strictObject({ action: z.enum(['disable', 'enable', 'delete']), username: z.string() }),
]);
export type AccountCommand = z.infer<typeof AccountCommandSchema>;

export const AccountCommandResultSchema = z.object({
  ok: z.boolean(),
  /** What to print on standard output (ok) or standard error (not ok). */
  lines: z.array(z.string()),
});
export type AccountCommandResult = z.infer<typeof AccountCommandResultSchema>;

export async function runAccountCommand(db: Queryable, clock: Clock, command: AccountCommand): Promise<AccountCommandResult> {
  try {
    switch (command.action) {
      case 'add': {
        const created = await createAccount(db, clock, {
          username: command.username,
          email: command.email,
          password: command.password,
          temporary: command.temporary,
        });
        const note = created.account.must_change_password ? ' (must set a new password at first login)' : '';
        const lines = [`created account ${created.account.username} <${created.account.email}>${note}`];
        if (created.generatedPassword !== undefined) {
          lines.push(`password: ${created.generatedPassword}`, '(shown once; it is stored only as a hash)');
        }
        return { ok: true, lines };
      }
      case 'list': {
        const accounts = await listAccounts(db);
        return {
          ok: true,
          lines: accounts.map((a) => {
            const state = a.disabled_at !== null ? 'disabled' : a.must_change_password ? 'new-password-required' : 'enabled';
            return `${a.username}\t${a.email}\t${state}\t${a.created_at.toISOString()}`;
          }),
        };
      }
      case 'disable':
      case 'enable': {
        const username = UsernameSchema.safeParse(command.username).data ?? command.username;
        if (!(await setAccountDisabled(db, clock, username, command.action === 'disable'))) {
          return { ok: false, lines: [`no account "${username}"`] };
        }
        return { ok: true, lines: [`${command.action}d account ${username}`] };
      }
      case 'delete': {
        const username = UsernameSchema.safeParse(command.username).data ?? command.username;
        if (!(await deleteAccount(db, username))) return { ok: false, lines: [`no account "${username}"`] };
        return { ok: true, lines: [`deleted account ${username} and its tokens`] };
      }
      default:
        return command satisfies never;
    }
  } catch (error) {
    if (error instanceof InvalidAccountError || error instanceof AccountExistsError) return { ok: false, lines: [error.message] };
    throw error;
  }
}
