/**
 * When to try again: exponential backoff with jitter, and the server's own Retry-After.
 * Pure functions, so the policy is tested without waiting.
 */

export interface BackoffPolicy {
  /** Delay before the first retry; doubled for each further one. */
  baseDelayMs: number;
  /** No single delay is longer than this. */
  maxDelayMs: number;
}

/**
 * Delay before retry number `retry` (1 = the first retry). "Equal jitter": half the exponential
 * step is fixed, half random, so that many clients failing together do not retry in lockstep
 * while none retries immediately.
 */
export function backoffDelay(retry: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * Milliseconds a Retry-After header asks us to wait (RFC 9110 §10.2.3: delay-seconds or an
 * HTTP-date); undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
