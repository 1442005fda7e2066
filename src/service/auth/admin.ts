import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { Queryable } from '../storage/db.js';
import { insertAccount, normalizeUsername, type Account } from './accounts.js';
import { passwordPolicyViolation } from './password-policy.js';
import { hashSecret } from './passwords.js';

/** What an operator may name an account: lower case letters, digits and `._@+-`. */
export const UsernameSchema = z
  .string()
  .transform(normalizeUsername)
  .pipe(
    z
      .string()
      .min(1, 'must not be empty')
      .max(128, 'must be at most 128 characters')
      .regex(/^[a-z0-9][a-z0-9._@+-]*$/, 'may contain only letters, digits and . _ @ + - (starting with a letter or digit)'),
  );
export const EmailSchema = z.email('must be an e-mail address');

export class InvalidAccountError extends Error {}

export interface CreateAccountInput {
  username: string;
  email: string;
  /** Undefined: a password is generated (and returned, to be shown once). */
  password?: string | undefined;
  temporary: boolean;
}

/** Creates an account as an operator does (`wikistruct user add`); the password policy applies. */
export async function createAccount(
  db: Queryable,
  clock: Clock,
  input: CreateAccountInput,
): Promise<{ account: Account; generatedPassword?: string }> {
  const username = UsernameSchema.safeParse(input.username);
  if (!username.success) throw new InvalidAccountError(`username: ${username.error.issues[0]?.message ?? 'invalid'}`);
  const email = EmailSchema.safeParse(input.email.trim());
  if (!email.success) throw new InvalidAccountError(`email: ${email.error.issues[0]?.message ?? 'invalid'}`);
  const password = input.password ?? generatePassword();
  const violation = passwordPolicyViolation(password, username.data);
  if (violation !== undefined) throw new InvalidAccountError(`password: ${violation}`);
  const account = await insertAccount(db, clock, {
    username: username.data,
    email: email.data,
    passwordHash: await hashSecret(password),
    mustChangePassword: input.temporary,
  });
  return input.password === undefined ? { account, generatedPassword: password } : { account };
}

/** 20 characters from 120 random bits, URL-safe so it survives copy and paste. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}
