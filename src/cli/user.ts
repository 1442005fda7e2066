/**
 * `wikistruct user add|list|disable|enable|delete`: account administration. With DATABASE_URL it
 * works on the server database alongside running servers. With the embedded database it opens the
 * database itself when no server runs; while a server holds it (PGlite must never be opened by
 * two processes) the command is run by that server through its admin socket, or, when the socket
 * is unavailable, refused with a message naming the server's pid and address.
 */
import { parseArgs } from 'node:util';
import { AccountCommandResultSchema, runAccountCommand, type AccountCommand, type AccountCommandResult } from '../service/auth/account-commands.js';
import { systemClock } from '../service/clock.js';
import { defaultDataDir } from '../service/server.js';
import { runHereOrInServer } from './in-server.js';

const HELP = `usage: wikistruct user <action> [options]

  add <name> --email <e> [--temporary-password] [--password-stdin]
               create an account; the password is read from standard input with
               --password-stdin, otherwise generated and printed once. With
               --temporary-password the account must set a new password at first login.
  list         list the accounts (name, e-mail, state, created)
  disable <name> | enable <name> | delete <name>

  --data DIR   data directory of the embedded database (default $WIKISTRUCT_DATA or ./data)
  --allow-shared-data-dir
               open the embedded database even though other accounts can reach the data
               directory (it must be 0700 and yours; docs/security.md)
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
        'allow-shared-data-dir': { type: 'boolean', default: false },
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
  if (!['add', 'list', 'disable', 'enable', 'delete'].includes(action)) return fail(`unknown action "${action}"\n\n${HELP}`, 2);
  const needsName = action !== 'list';
  if (needsName && name === undefined) return fail(`${action} needs an account name`, 2);
  if (extra.length > 0 || (!needsName && name !== undefined)) return fail(`unexpected argument "${extra[0] ?? name}"`, 2);
  if (action === 'add' && values.email === undefined) return fail('add needs --email', 2);
  if (action !== 'add' && (values.email !== undefined || values['temporary-password'] || values['password-stdin'])) {
    return fail('--email, --temporary-password and --password-stdin belong to "add"', 2);
  }

  let command: AccountCommand;
  if (action === 'add') {
    const password = values['password-stdin'] ? (await readStdin()).replace(/\r?\n$/, '') : undefined;
    command = {
      action,
      username: name ?? '',
      email: values.email ?? '',
      temporary: values['temporary-password'],
      ...(password === undefined ? {} : { password }),
    };
  } else if (action === 'list') {
    command = { action };
  } else {
    command = { action: action as 'disable' | 'enable' | 'delete', username: name ?? '' };
  }
  return report(await execute(command, values.data ?? defaultDataDir(), values['allow-shared-data-dir']));
}

async function execute(command: AccountCommand, dataDir: string, allowSharedDataDir: boolean): Promise<AccountCommandResult> {
  const ran = await runHereOrInServer({
    dataDir,
    allowSharedDataDir,
    name: 'wikistruct user',
    command,
    schema: AccountCommandResultSchema,
    here: (db) => runAccountCommand(db, systemClock, command),
  });
  return ran.where === 'nowhere' ? { ok: false, lines: [ran.message] } : ran.result;
}

function report(result: AccountCommandResult): number {
  if (!result.ok) return fail(result.lines.join('\n'), 1);
  for (const line of result.lines) process.stdout.write(`${line}\n`);
  return 0;
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
