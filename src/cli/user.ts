/**
 * `wikistruct user add|list|disable|enable|delete`: account administration, straight on the
 * database. With the embedded database this refuses (naming the server's pid and address) while
 * a server holds the data directory, because PGlite must never be opened by two processes; with
 * DATABASE_URL it works alongside running servers.
 */
import { parseArgs } from 'node:util';
import { createAccount, InvalidAccountError, UsernameSchema } from '../service/auth/admin.js';
import { AccountExistsError, deleteAccount, listAccounts, setAccountDisabled } from '../service/auth/accounts.js';
import { systemClock } from '../service/clock.js';
import { defaultDataDir } from '../service/server.js';
import type { Db } from '../service/storage/db.js';
import { DataDirLockedError } from '../service/storage/lock.js';
import { openStorage } from '../service/storage/open.js';

const HELP = `usage: wikistruct user <action> [options]

  add <name> --email <e> [--temporary-password] [--password-stdin]
               create an account; the password is read from standard input with
               --password-stdin, otherwise generated and printed once. With
               --temporary-password the account must set a new password at first login.
  list         list the accounts
  disable <name> | enable <name> | delete <name>

  --data DIR   data directory of the embedded database (default $WIKISTRUCT_DATA or ./data)
  environment: DATABASE_URL to use a PostgreSQL server instead.
`;

export async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        'temporary-password': { type: 'boolean', default: false },
        'password-stdin': { type: 'boolean', default: false },
        data: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${HELP}`, 2);
  }
  const { values, positionals } = parsed;
  const [action, name, ...extra] = positionals;
  if (values.help || action === undefined) {
    process.stdout.write(HELP);
    return values.help ? 0 : 2;
  }
  const needsName = action !== 'list';
  if (!['add', 'list', 'disable', 'enable', 'delete'].includes(action)) return fail(`unknown action "${action}"\n\n${HELP}`, 2);
  if (needsName && name === undefined) return fail(`${action} needs an account name`, 2);
  if (extra.length > 0 || (!needsName && name !== undefined)) return fail(`unexpected argument "${extra[0] ?? name}"`, 2);
  if (action === 'add' && values.email === undefined) return fail('add needs --email', 2);
  if (action !== 'add' && (values.email !== undefined || values['temporary-password'] || values['password-stdin'])) {
    return fail('--email, --temporary-password and --password-stdin belong to "add"', 2);
  }
  const password = values['password-stdin'] ? (await readStdin()).replace(/\r?\n$/, '') : undefined;

  let db: Db;
  try {
    ({ db } = await openStorage({
      dataDir: values.data ?? defaultDataDir(),
      databaseUrl: process.env['DATABASE_URL'] || undefined,
      command: 'wikistruct user',
    }));
  } catch (error) {
    if (error instanceof DataDirLockedError) return fail(error.message, 1);
    throw error;
  }
  try {
    const username = name === undefined ? '' : UsernameSchema.safeParse(name).data ?? name;
    switch (action) {
      case 'add': {
        const created = await createAccount(db, systemClock, {
          username: name ?? '',
          email: values.email ?? '',
          password,
          temporary: values['temporary-password'],
        });
        const note = created.account.must_change_password ? ' (must set a new password at first login)' : '';
        process.stdout.write(`created account ${created.account.username} <${created.account.email}>${note}\n`);
        if (created.generatedPassword !== undefined) {
          process.stdout.write(`password: ${created.generatedPassword}\n(shown once; it is stored only as a hash)\n`);
        }
        return 0;
      }
      case 'list': {
        const accounts = await listAccounts(db);
        for (const a of accounts) {
          const state = a.disabled_at !== null ? 'disabled' : a.must_change_password ? 'new-password-required' : 'enabled';
          process.stdout.write(`${a.username}\t${a.email}\t${state}\t${a.created_at.toISOString()}\n`);
        }
        if (accounts.length === 0) process.stderr.write('no accounts\n');
        return 0;
      }
      case 'disable':
      case 'enable': {
        const found = await setAccountDisabled(db, systemClock, username, action === 'disable');
        if (!found) return fail(`no account "${username}"`, 1);
        process.stdout.write(`${action}d account ${username}\n`);
        return 0;
      }
      case 'delete': {
        if (!(await deleteAccount(db, username))) return fail(`no account "${username}"`, 1);
        process.stdout.write(`deleted account ${username} and its tokens\n`);
        return 0;
      }
      default:
        return fail(`unknown action "${action}"`, 2);
    }
  } catch (error) {
    if (error instanceof InvalidAccountError || error instanceof AccountExistsError) return fail(error.message, 1);
    throw error;
  } finally {
    await db.close();
  }
}

function fail(message: string, code: number): number {
  process.stderr.write(`wikistruct user: ${message}\n`);
  return code;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
