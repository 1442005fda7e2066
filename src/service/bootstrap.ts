/**
 * First run: a database without any account gets an administrator, so that a new user can log in
 * right after `wikistruct serve`. The name and password come from WIKISTRUCT_ADMIN_USERNAME /
 * WIKISTRUCT_ADMIN_PASSWORD; without a password one is generated and printed once, in a framed
 * block on standard error (never to the log, which may be shipped elsewhere, and apart from the
 * JSON log lines on standard output, so it cannot drown in them). The server calls this only after
 * it listens: a start that fails creates no account and prints no password.
 *
 * The account is not marked "must change password": a NEW_PASSWORD_REQUIRED challenge would add
 * a step to the first curl session. The printed message tells the operator to change it.
 */
import { z } from 'zod';
import { createAccount } from './auth/admin.js';
import type { Clock } from './clock.js';
import type { Db } from './storage/db.js';

/** Arbitrary constant: serialises first starts of several processes on one database. */
const BOOTSTRAP_LOCK = 7_031_943;

const BootstrapEnvSchema = z.object({
  WIKISTRUCT_ADMIN_USERNAME: z.string().min(1).default('admin'),
  WIKISTRUCT_ADMIN_PASSWORD: z.string().min(1).optional(),
  WIKISTRUCT_ADMIN_EMAIL: z.string().min(1).default('admin@localhost.localdomain'),
});

export interface BootstrapResult {
  username: string;
  /** Set when the password was generated (and printed). */
  generatedPassword?: string;
}

/**
 * Creates the first account when there is none; returns undefined when accounts exist. Throws
 * InvalidAccountError when the environment's name, e-mail or password is refused by the policy.
 */
export async function bootstrapAdmin(
  db: Db,
  clock: Clock,
  env: NodeJS.ProcessEnv = process.env,
  print: (text: string) => void = (text) => void process.stderr.write(text),
): Promise<BootstrapResult | undefined> {
  const settings = BootstrapEnvSchema.parse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  const result = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK]);
    const rows = await tx.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM accounts) AS any');
    if (rows[0]?.any === true) return undefined;
    const created = await createAccount(tx, clock, {
      username: settings.WIKISTRUCT_ADMIN_USERNAME,
      email: settings.WIKISTRUCT_ADMIN_EMAIL,
      password: settings.WIKISTRUCT_ADMIN_PASSWORD,
      temporary: false,
    });
    const out: BootstrapResult = { username: created.account.username };
    if (created.generatedPassword !== undefined) out.generatedPassword = created.generatedPassword;
    return out;
  });
  if (result === undefined) return undefined;
  if (result.generatedPassword !== undefined) {
    print(
      framed([
        `First start: created the administrator account "${result.username}".`,
        `  password: ${result.generatedPassword}`,
        'This password is shown only now. Log in with POST /v1/login;',
        'change it with POST /v1/change-password.',
      ]),
    );
  } else {
    print(framed([`First start: created the administrator account "${result.username}"`, 'with the password from WIKISTRUCT_ADMIN_PASSWORD.']));
  }
  return result;
}

/** Lines in a box of `=` rules, set apart from the log lines around them. */
function framed(lines: readonly string[]): string {
  const rule = '='.repeat(Math.max(...lines.map((l) => l.length)));
  return `\n${rule}\n${lines.join('\n')}\n${rule}\n\n`;
}
