/**
 * Every time-dependent decision (token expiry, code and session lifetimes, throttling windows,
 * revocation-cache staleness) reads time from an injected clock, so tests can jump 24 hours or
 * 90 days without waiting.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Whole seconds since the epoch, as JWT `iat`/`exp` use. */
export function epochSeconds(clock: Clock): number {
  return Math.floor(clock.now().getTime() / 1000);
}

export function addMs(date: Date, ms: number): Date {
  return new Date(date.getTime() + ms);
}
