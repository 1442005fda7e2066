import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter } from '../../../src/service/content/upstream/backoff.js';

const policy = { baseDelayMs: 100, maxDelayMs: 1000 };

describe('backoffDelay', () => {
  it('doubles per retry, between half and all of the step', () => {
    expect(backoffDelay(1, policy, () => 0), 'first retry, least jitter').toBe(50);
    expect(backoffDelay(1, policy, () => 1), 'first retry, most jitter').toBe(100);
    expect(backoffDelay(2, policy, () => 0), 'second retry').toBe(100);
    expect(backoffDelay(3, policy, () => 1), 'third retry').toBe(400);
  });
  it('is capped', () => {
    expect(backoffDelay(20, policy, () => 1), 'capped at maxDelayMs').toBe(1000);
  });
  it('is jittered', () => {
    const seen = new Set(Array.from({ length: 50 }, () => backoffDelay(4, policy)));
    expect(seen.size, 'random delays differ').toBeGreaterThan(5);
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('3'), 'seconds').toBe(3000);
    const now = Date.parse('2024-01-01T00:00:00Z');
    expect(parseRetryAfter('Mon, 01 Jan 2024 00:00:10 GMT', now), 'HTTP-date').toBe(10_000);
    expect(parseRetryAfter('Sun, 31 Dec 2023 00:00:00 GMT', now), 'date in the past').toBe(0);
  });
  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(null), 'absent').toBeUndefined();
    expect(parseRetryAfter('soon'), 'garbage').toBeUndefined();
  });
});
