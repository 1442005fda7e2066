import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { forbidden, tooManyRequests, unauthorized, unprocessable, type HttpError } from '../errors.js';
import type { Mailer } from '../mailer.js';
import type { Db } from '../storage/db.js';
import type { AccessTokenVerifier } from './access-token.js';
import { findAccountById, findAccountByUsername, replacePassword, type Account } from './accounts.js';
import { isFamiliarAddress, rememberAddress } from './familiar-addresses.js';
import { BackgroundTasks } from './background.js';
import { consumeChallenge, createChallenge, findChallenge } from './challenges.js';
import type { TokenMinter } from './jwt.js';
import type { Limit, Limiter, Ticket } from './limiter.js';
import { passwordPolicyViolation, SAME_AS_CURRENT } from './password-policy.js';
import { hashSecret, verifySecret } from './passwords.js';
import { issueRefreshToken, revokeRefreshToken, spendRefreshToken } from './refresh-tokens.js';
import { consumeResetCode, findResetTarget, storeResetCode } from './reset-codes.js';
import type * as S from './schemas.js';
import { randomDigits, sha256 } from './secrets.js';
import { ACCESS_TOKEN_TTL_SECONDS, RESET_CODE_TTL_MS, type ThrottleSettings } from './settings.js';
import { SqlLimiter } from './sql-limiter.js';

export interface AuthServiceDeps {
  db: Db;
  clock: Clock;
  tokens: TokenMinter;
  verifier: AccessTokenVerifier;
  mailer: Mailer;
  throttle: ThrottleSettings;
  log: FastifyBaseLogger;
  /** Where the throttling counters live; by default the `auth_throttle` table of `db`. */
  limiter?: Limiter;
}

/** Who is asking: the client address, for per-address throttling. */
export interface Caller {
  address: string;
}

const WRONG_CREDENTIALS = 'incorrect username or password';
const INVALID_CODE = 'invalid or expired confirmation code';
const RESET_ANSWER = 'if the account exists, a confirmation code has been sent to its e-mail address';
const PASSWORD_CHANGED = 'password changed; every refresh token of the account has been revoked';

/**
 * The operations behind the /v1 endpoints. Routes validate and shape; everything that decides
 * lives here.
 *
 * Throttling: every attempt takes its slots from the limiter before any secret is compared or
 * hashed, in one atomic step, so a refused attempt costs no argon2 computation and a burst
 * cannot overshoot. Failures are counted per (account, client address), per address, and, from
 * addresses the account does not know, on a slower per-account backstop (failureLimits).
 * A failure keeps its slots; a success gives its own back and clears nothing: a correct password
 * amid a burst of wrong ones must not reset the count of the guesses around it (issue 22).
 *
 * Timing: every path that checks a secret costs one argon2 verification whether or not the
 * account exists. forgot-password replies after the same single statement for every name and
 * does the rest (code, write, mail) after the reply; forgot-password-confirm issues the same
 * statements whether or not a code is pending.
 */
export class AuthService {
  private readonly limiter: Limiter;
  private readonly background: BackgroundTasks;

  constructor(private readonly deps: AuthServiceDeps) {
    this.limiter = deps.limiter ?? new SqlLimiter(deps.db, deps.clock);
    this.background = new BackgroundTasks(deps.log);
  }

  async login(request: S.LoginRequest, caller: Caller): Promise<S.LoginReply> {
    const ticket = await this.take(await this.failureLimits(request.username, caller));
    const account = await findAccountByUsername(this.deps.db, request.username);
    const ok = await verifySecret(account?.password_hash, request.password);
    if (!ok || account === undefined) throw unauthorized(WRONG_CREDENTIALS);
    await ticket.giveBack();
    if (account.disabled_at !== null) throw forbidden('account is disabled');
    await rememberAddress(this.deps.db, this.deps.clock, account.id, caller.address);
    if (account.must_change_password) {
      return { challenge_name: 'NEW_PASSWORD_REQUIRED', session: await createChallenge(this.deps.db, this.deps.clock, account.id) };
    }
    return this.issueTokens(account);
  }

  async refresh(request: S.RefreshRequest, caller: Caller): Promise<S.RefreshReply> {
    const ticket = await this.take([this.addressLimit(caller)]);
    const outcome = await spendRefreshToken(this.deps.db, this.deps.clock, request.refresh_token, request.username);
    // Only a token that does not exist is a guess; the other outcomes give the slot back.
    if (outcome.kind !== 'invalid') await ticket.giveBack();
    switch (outcome.kind) {
      case 'ok':
        return {
          id_token: await this.deps.tokens.id(outcome.account),
          access_token: await this.deps.tokens.access(outcome.account, outcome.refreshTokenId),
          expires_in: ACCESS_TOKEN_TTL_SECONDS,
        };
      case 'invalid':
        throw unauthorized('invalid, expired or revoked refresh token');
      case 'disabled':
        throw forbidden('account is disabled');
      case 'exhausted':
        // No Retry-After: waiting does not help, only a new login does.
        throw tooManyRequests('refresh token has been used the maximum number of times; log in again');
      default:
        return outcome satisfies never;
    }
  }

  async revoke(request: S.RevokeRequest): Promise<S.Message> {
    const id = await revokeRefreshToken(this.deps.db, this.deps.clock, request.refresh_token);
    if (id === undefined) throw unauthorized('invalid refresh token');
    this.deps.verifier.forgetCachedState();
    return { message: 'refresh token revoked', status: 200 };
  }

  /**
   * The reply waits for one statement, the same for every name (the limiter's): whether the
   * account exists is decided after the reply, where the code is hashed (for unknown names too,
   * so the load on the machine is the same), stored and mailed.
   */
  async forgotPassword(request: S.ForgotPasswordRequest, caller: Caller): Promise<S.Message> {
    // Counted per requested name, existing or not, so the limit itself reveals nothing. Each
    // request is a mail: its slots are never given back.
    await this.take([
      { key: `reset:${request.username}`, max: this.deps.throttle.resetRequestsPerAccount, windowMs: this.deps.throttle.windowMs },
      this.addressLimit(caller),
    ]);
    this.background.run('password reset', () => this.sendResetCode(request.username));
    return { message: RESET_ANSWER, status: 200 };
  }

  async confirmForgotPassword(request: S.ForgotPasswordConfirmRequest, caller: Caller): Promise<S.Message> {
    requirePolicy('password', request.password, request.username);
    const { db, clock } = this.deps;
    const target = await findResetTarget(db, clock, request.username);
    const codeHash = target?.codeHash ?? undefined;
    // The code's own counter: attempts at this code over its lifetime. Without a live code the
    // attempt is counted on the name instead, so every attempt writes the same rows either way.
    const codeKey = codeHash === undefined ? `code-none:${request.username}` : `code:${sha256(codeHash)}`;
    const ticket = await this.limiter.take([
      ...(await this.failureLimits(request.username, caller)),
      { key: codeKey, max: this.deps.throttle.resetCodeAttempts, windowMs: RESET_CODE_TTL_MS },
    ]);
    if (!ticket.allowed) {
      // A code tried too often is as dead as an expired one: waiting does not revive it.
      if (ticket.refused.every((key) => key === codeKey)) throw unauthorized(INVALID_CODE);
      throw throttled(ticket);
    }
    const ok = await verifySecret(codeHash, request.confirmation_code);
    if (!ok || target === undefined || codeHash === undefined) throw unauthorized(INVALID_CODE);
    if (target.disabled) {
      await ticket.giveBack();
      throw forbidden('account is disabled');
    }
    const passwordHash = await hashSecret(request.password);
    await db.transaction(async (tx) => {
      if (!(await consumeResetCode(tx, clock, target.accountId, codeHash))) throw unauthorized(INVALID_CODE);
      await replacePassword(tx, clock, target.accountId, passwordHash);
    });
    this.deps.verifier.forgetCachedState();
    await ticket.giveBack();
    await rememberAddress(db, clock, target.accountId, caller.address);
    return { message: PASSWORD_CHANGED, status: 200 };
  }

  async changePassword(request: S.ChangePasswordRequest, caller: Caller): Promise<S.Message> {
    const claims = await this.deps.verifier.verify(request.access_token);
    // previous_password is the current password if it verifies, and if it does not the request
    // fails anyway: comparing the two strings is the "not the current password" rule, for free.
    requirePolicy('proposed_password', request.proposed_password, claims.username, request.previous_password);
    const ticket = await this.take(await this.failureLimits(claims.username, caller));
    const account = await findAccountById(this.deps.db, claims.sub);
    if (account === undefined) {
      await ticket.giveBack();
      throw unauthorized('invalid, expired or revoked access token');
    }
    if (!(await verifySecret(account.password_hash, request.previous_password))) throw unauthorized('incorrect previous password');
    const passwordHash = await hashSecret(request.proposed_password);
    await this.deps.db.transaction((tx) => replacePassword(tx, this.deps.clock, account.id, passwordHash));
    this.deps.verifier.forgetCachedState();
    await ticket.giveBack();
    await rememberAddress(this.deps.db, this.deps.clock, account.id, caller.address);
    return { message: PASSWORD_CHANGED, status: 200 };
  }

  async completeNewPassword(request: S.NewPasswordRequiredRequest): Promise<S.NewPasswordReply> {
    requirePolicy('new_password', request.new_password, request.username);
    const { db, clock } = this.deps;
    // Read first, used up last: a new password refused by the policy leaves the session usable.
    const challenge = await findChallenge(db, clock, request.session, request.username);
    if (challenge === undefined) throw unauthorized('invalid or expired session');
    if (challenge.disabled) throw forbidden('account is disabled');
    // Only the hash of the temporary password is known: one verification tells if it is reused.
    if (await verifySecret(challenge.passwordHash, request.new_password)) throw unprocessable(`new_password: ${SAME_AS_CURRENT}`);
    if (!(await consumeChallenge(db, clock, request.session))) throw unauthorized('invalid or expired session');
    const passwordHash = await hashSecret(request.new_password);
    await db.transaction((tx) => replacePassword(tx, clock, challenge.accountId, passwordHash));
    const account = await findAccountById(db, challenge.accountId);
    if (account === undefined) throw unauthorized('invalid or expired session');
    // The consumed session is echoed back, as the API this replaces does; it cannot be reused.
    return { ...(await this.issueTokens(account)), session: request.session };
  }

  /** Resolves when the work started after replies (reset codes, mails) has finished. */
  async drainMail(): Promise<void> {
    await this.background.drain();
  }

  private async issueTokens(account: Account): Promise<S.Tokens> {
    const refresh = await issueRefreshToken(this.deps.db, this.deps.clock, account.id);
    return {
      id_token: await this.deps.tokens.id(account),
      access_token: await this.deps.tokens.access(account, refresh.id),
      refresh_token: refresh.token,
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
    };
  }

  /** Takes the slots, or throws the 429 that says when to come back. */
  private async take(limits: readonly Limit[]): Promise<Ticket> {
    const ticket = await this.limiter.take(limits);
    if (!ticket.allowed) throw throttled(ticket);
    return ticket;
  }

  /**
   * The counters a failure of `username` from this caller fills: the (account, address) pair, the
   * address over all accounts, and, from an address the account has not signed in from lately,
   * the account's slower backstop. So guesses from one address lock out that address only, many
   * addresses together lock out strangers only, and the owner still gets in from a familiar one.
   */
  private async failureLimits(username: string, caller: Caller): Promise<Limit[]> {
    const t = this.deps.throttle;
    const limits = [{ key: `pair:${caller.address} ${username}`, max: t.accountAddressFailures, windowMs: t.windowMs }, this.addressLimit(caller)];
    if (!(await isFamiliarAddress(this.deps.db, this.deps.clock, username, caller.address, t.familiarForMs))) {
      limits.push({ key: `account:${username}`, max: t.accountBackstopFailures, windowMs: t.backstopWindowMs });
    }
    return limits;
  }

  private addressLimit(caller: Caller): Limit {
    return { key: `address:${caller.address}`, max: this.deps.throttle.addressFailures, windowMs: this.deps.throttle.windowMs };
  }

  /** After the reply: the same hash for every name; the write and the mail only for an account. */
  private async sendResetCode(username: string): Promise<void> {
    const code = randomDigits(6);
    const recipient = await storeResetCode(this.deps.db, this.deps.clock, username, await hashSecret(code));
    if (recipient === undefined) return;
    const where = await this.deps.mailer.send({
      to: recipient.email,
      subject: 'Your wikistruct password reset code',
      text:
        `Someone asked to reset the password of the wikistruct account "${recipient.username}".\n\n` +
        `Confirmation code: ${code}\n\nThe code is valid for one hour and can be used once. ` +
        `If you did not ask for it, ignore this mail: your password is unchanged.\n`,
    });
    this.deps.log.info({ account: recipient.username, delivered_to: where }, 'password reset mail sent');
  }
}

function requirePolicy(field: string, password: string, username: string, current?: string): void {
  const violation = passwordPolicyViolation(password, username, current);
  if (violation !== undefined) throw unprocessable(`${field}: ${violation}`);
}

function throttled(ticket: Ticket): HttpError {
  return tooManyRequests('too many attempts; try again later', ticket.retryAfterSeconds);
}

