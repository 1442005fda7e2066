/** Lifetimes and limits of the auth service, in one place; docs/service.md quotes them. */
export const ACCESS_TOKEN_TTL_SECONDS = 24 * 60 * 60;
export const REFRESH_TOKEN_TTL_MS = 90 * 24 * 60 * 60 * 1000;
export const REFRESH_TOKEN_MAX_USES = 90;
export const RESET_CODE_TTL_MS = 60 * 60 * 1000;
export const CHALLENGE_TTL_MS = 3 * 60 * 1000;
/** A signing key older than this is retired and replaced when the next token is signed. */
export const SIGNING_KEY_ROTATE_AFTER_MS = 30 * 24 * 60 * 60 * 1000;
/** Upper bound on how long another process may still accept an access token after revocation. */
export const DEFAULT_REVOCATION_CACHE_MS = 2000;

export interface ThrottleSettings {
  /**
   * Failed attempts at one account (login, change-password, reset code) from one client address
   * per window. Per pair, not per account: an attacker who knows a user name can no longer lock
   * its owner out from everywhere (issue 22).
   */
  accountAddressFailures: number;
  /**
   * The slower backstop against an attacker with many addresses: failed attempts at one account
   * from addresses it has not signed in from lately (`familiarForMs`), per `backstopWindowMs`. A
   * familiar address is not held by it, so the owner still gets in from where they usually do.
   */
  accountBackstopFailures: number;
  backstopWindowMs: number;
  /** How long after a successful sign-in its client address counts as familiar to the account. */
  familiarForMs: number;
  /** Failed attempts per client address, over all accounts, per window. */
  addressFailures: number;
  /** forgot-password requests (mails) per account name per window. */
  resetRequestsPerAccount: number;
  /** The window of the per-pair, per-address and reset-request counters. */
  windowMs: number;
  /** Attempts at one reset code over its lifetime (its window is the code's lifetime). */
  resetCodeAttempts: number;
}

export const DEFAULT_THROTTLE: ThrottleSettings = {
  accountAddressFailures: 10,
  accountBackstopFailures: 100,
  backstopWindowMs: 60 * 60 * 1000,
  familiarForMs: 30 * 24 * 60 * 60 * 1000,
  addressFailures: 100,
  resetRequestsPerAccount: 5,
  windowMs: 15 * 60 * 1000,
  resetCodeAttempts: 5,
};
