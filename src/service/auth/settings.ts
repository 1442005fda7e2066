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
  /** Failed attempts per account (login, change-password, reset code) per window. */
  accountFailures: number;
  /** Failed attempts per client address, over all accounts, per window. */
  addressFailures: number;
  /** forgot-password requests (mails) per account name per window. */
  resetRequestsPerAccount: number;
  /** The window of the three counters above. */
  windowMs: number;
  /** Attempts at one reset code over its lifetime (its window is the code's lifetime). */
  resetCodeAttempts: number;
}

export const DEFAULT_THROTTLE: ThrottleSettings = {
  accountFailures: 10,
  addressFailures: 100,
  resetRequestsPerAccount: 5,
  windowMs: 15 * 60 * 1000,
  resetCodeAttempts: 5,
};
