import type { FastifyBaseLogger } from 'fastify';
import { addMs, type Clock } from '../clock.js';
import { forbidden, tooManyRequests, unauthorized, unprocessable } from '../errors.js';
import type { Mailer } from '../mailer.js';
import type { Db } from '../storage/db.js';
import type { AccessTokenVerifier } from './access-token.js';
import { findAccountById, findAccountByUsername, replacePassword, type Account } from './accounts.js';
import type { TokenMinter } from './jwt.js';
import { passwordPolicyViolation } from './password-policy.js';
import { hashSecret, verifySecret } from './passwords.js';
import { issueRefreshToken, revokeRefreshToken, spendRefreshToken } from './refresh-tokens.js';
import type * as S from './schemas.js';
import { randomDigits, randomToken, sha256 } from './secrets.js';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  CHALLENGE_TTL_MS,
  RESET_CODE_MAX_ATTEMPTS,
  RESET_CODE_TTL_MS,
  type ThrottleSettings,
} from './settings.js';
import { Throttle, type Limit } from './throttle.js';

export interface AuthServiceDeps {
  db: Db;
  clock: Clock;
  tokens: TokenMinter;
  verifier: AccessTokenVerifier;
  mailer: Mailer;
  throttle: ThrottleSettings;
  log: FastifyBaseLogger;
}

/** Who is asking: the client address, for per-address throttling. */
export interface Caller {
  address: string;
}

const WRONG_CREDENTIALS = 'incorrect username or password';
const RESET_ANSWER = 'if the account exists, a confirmation code has been sent to its e-mail address';

/**
 * The operations behind the /v1 endpoints. Routes validate and shape; everything that decides
 * lives here. Every path that checks a secret costs one argon2 verification whether or not the
 * account exists, so timing does not reveal which accounts exist.
 */
export class AuthService {
  private readonly throttle: Throttle;
  /** Mails being sent, so shutdown can wait for them. */
  private readonly pendingMail = new Set<Promise<void>>();

  constructor(private readonly deps: AuthServiceDeps) {
    this.throttle = new Throttle(deps.db, deps.clock, deps.throttle.windowMs);
  }

  async login(request: S.LoginRequest, caller: Caller): Promise<S.LoginReply> {
    const limits = this.failureLimits(request.username, caller);
    await this.throttle.check(limits);
    const account = await findAccountByUsername(this.deps.db, request.username);
    const ok = await verifySecret(account?.password_hash, request.password);
    if (!ok || account === undefined) {
      await this.throttle.count(limits);
      throw unauthorized(WRONG_CREDENTIALS);
    }
    await this.throttle.reset(accountKey(account.username));
    if (account.disabled_at !== null) throw forbidden('account is disabled');
    if (account.must_change_password) {
      const session = randomToken();
      await this.deps.db.query(
        'INSERT INTO password_challenges (session_hash, account_id, expires_at) VALUES ($1, $2, $3)',
        [sha256(session), account.id, addMs(this.deps.clock.now(), CHALLENGE_TTL_MS).toISOString()],
      );
      return { challenge_name: 'NEW_PASSWORD_REQUIRED', session };
    }
    return this.issueTokens(account);
  }

  async refresh(request: S.RefreshRequest, caller: Caller): Promise<S.RefreshReply> {
    const limits = [{ key: addressKey(caller), max: this.deps.throttle.addressFailures }];
    await this.throttle.check(limits);
    const outcome = await spendRefreshToken(this.deps.db, this.deps.clock, request.refresh_token, request.username);
    switch (outcome.kind) {
      case 'ok':
        return {
          id_token: await this.deps.tokens.id(outcome.account),
          access_token: await this.deps.tokens.access(outcome.account, outcome.refreshTokenId),
          expires_in: ACCESS_TOKEN_TTL_SECONDS,
        };
      case 'invalid':
        await this.throttle.count(limits);
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

  async forgotPassword(request: S.ForgotPasswordRequest, caller: Caller): Promise<S.Message> {
    // Counted per requested name, existing or not, so the limit itself reveals nothing.
    const limits: Limit[] = [
      { key: `reset:${request.username}`, max: this.deps.throttle.resetRequestsPerAccount },
      { key: addressKey(caller), max: this.deps.throttle.addressFailures },
    ];
    await this.throttle.check(limits);
    await this.throttle.count(limits);
    const code = randomDigits(6);
    const codeHash = await hashSecret(code); // hashed for unknown accounts too: same time either way
    const account = await findAccountByUsername(this.deps.db, request.username);
    if (account !== undefined && account.disabled_at === null) {
      const now = this.deps.clock.now();
      await this.deps.db.query(
        `INSERT INTO password_reset_codes (account_id, code_hash, created_at, expires_at, attempts, used_at)
         VALUES ($1, $2, $3, $4, 0, NULL)
         ON CONFLICT (account_id) DO UPDATE SET code_hash = $2, created_at = $3, expires_at = $4, attempts = 0, used_at = NULL`,
        [account.id, codeHash, now.toISOString(), addMs(now, RESET_CODE_TTL_MS).toISOString()],
      );
      // Not awaited: an SMTP round trip would make existing accounts answer measurably slower.
      this.deliver(account, code);
    }
    return { message: RESET_ANSWER, status: 200 };
  }

  async confirmForgotPassword(request: S.ForgotPasswordConfirmRequest, caller: Caller): Promise<S.Message> {
    requirePolicy('password', request.password, request.username);
    const limits = this.failureLimits(request.username, caller);
    await this.throttle.check(limits);
    const { db, clock } = this.deps;
    const account = await findAccountByUsername(db, request.username);
    // The attempt is counted before the code is compared, atomically: at most 5 comparisons ever.
    const rows =
      account === undefined
        ? []
        : await db.query<{ code_hash: string }>(
            `UPDATE password_reset_codes SET attempts = attempts + 1
              WHERE account_id = $1 AND used_at IS NULL AND expires_at > $2 AND attempts < $3
              RETURNING code_hash`,
            [account.id, clock.now().toISOString(), RESET_CODE_MAX_ATTEMPTS],
          );
    const ok = await verifySecret(rows[0]?.code_hash, request.confirmation_code);
    if (!ok || account === undefined) {
      await this.throttle.count(limits);
      throw unauthorized('invalid or expired confirmation code');
    }
    if (account.disabled_at !== null) throw forbidden('account is disabled');
    const passwordHash = await hashSecret(request.password);
    await db.transaction(async (tx) => {
      const used = await tx.query(
        'UPDATE password_reset_codes SET used_at = $2 WHERE account_id = $1 AND used_at IS NULL RETURNING account_id',
        [account.id, clock.now().toISOString()],
      );
      if (used.length === 0) throw unauthorized('invalid or expired confirmation code'); // used concurrently
      await replacePassword(tx, clock, account.id, passwordHash);
    });
    this.deps.verifier.forgetCachedState();
    await this.throttle.reset(accountKey(account.username));
    return { message: 'password changed; every refresh token of the account has been revoked', status: 200 };
  }

  async changePassword(request: S.ChangePasswordRequest, caller: Caller): Promise<S.Message> {
    const claims = await this.deps.verifier.verify(request.access_token);
    requirePolicy('proposed_password', request.proposed_password, claims.username);
    const limits = this.failureLimits(claims.username, caller);
    await this.throttle.check(limits);
    const account = await findAccountById(this.deps.db, claims.sub);
    if (account === undefined) throw unauthorized('invalid, expired or revoked access token');
    if (!(await verifySecret(account.password_hash, request.previous_password))) {
      await this.throttle.count(limits);
      throw unauthorized('incorrect previous password');
    }
    const passwordHash = await hashSecret(request.proposed_password);
    await this.deps.db.transaction((tx) => replacePassword(tx, this.deps.clock, account.id, passwordHash));
    this.deps.verifier.forgetCachedState();
    return { message: 'password changed; every refresh token of the account has been revoked', status: 200 };
  }

  async completeNewPassword(request: S.NewPasswordRequiredRequest): Promise<S.NewPasswordReply> {
    requirePolicy('new_password', request.new_password, request.username);
    const { db, clock } = this.deps;
    // Consumed by one conditional UPDATE: a session works once, however many requests race.
    const rows = await db.query<{ account_id: string; disabled: boolean }>(
      `UPDATE password_challenges c SET used_at = $3
         FROM accounts a
        WHERE a.id = c.account_id AND c.session_hash = $1 AND a.username = $2
          AND c.used_at IS NULL AND c.expires_at > $3
        RETURNING c.account_id, a.disabled_at IS NOT NULL AS disabled`,
      [sha256(request.session), request.username, clock.now().toISOString()],
    );
    const accountId = rows[0]?.account_id;
    if (accountId === undefined) throw unauthorized('invalid or expired session');
    if (rows[0]?.disabled === true) throw forbidden('account is disabled');
    const passwordHash = await hashSecret(request.new_password);
    await db.transaction((tx) => replacePassword(tx, clock, accountId, passwordHash));
    const account = await findAccountById(db, accountId);
    if (account === undefined) throw unauthorized('invalid or expired session');
    // The consumed session is echoed back, as the API this replaces does; it cannot be reused.
    return { ...(await this.issueTokens(account)), session: request.session };
  }

  /** Resolves when every mail started so far has been handed over (or failed and been logged). */
  async drainMail(): Promise<void> {
    await Promise.all([...this.pendingMail]);
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

  private failureLimits(username: string, caller: Caller): Limit[] {
    return [
      { key: accountKey(username), max: this.deps.throttle.accountFailures },
      { key: addressKey(caller), max: this.deps.throttle.addressFailures },
    ];
  }

  private deliver(account: Account, code: string): void {
    const mail = {
      to: account.email,
      subject: 'Your wikistruct password reset code',
      text:
        `Someone asked to reset the password of the wikistruct account "${account.username}".\n\n` +
        `Confirmation code: ${code}\n\nThe code is valid for one hour and can be used once. ` +
        `If you did not ask for it, ignore this mail: your password is unchanged.\n`,
    };
    const sending = this.deps.mailer.send(mail).then(
      (where) => this.deps.log.info({ account: account.username, delivered_to: where }, 'password reset mail sent'),
      (error: unknown) => this.deps.log.error({ account: account.username, err: error }, 'password reset mail failed'),
    );
    this.pendingMail.add(sending);
    void sending.finally(() => this.pendingMail.delete(sending));
  }
}

function requirePolicy(field: string, password: string, username: string): void {
  const violation = passwordPolicyViolation(password, username);
  if (violation !== undefined) throw unprocessable(`${field}: ${violation}`);
}

const accountKey = (username: string): string => `account:${username}`;
const addressKey = (caller: Caller): string => `address:${caller.address}`;
