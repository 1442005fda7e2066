import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../src/service/content/upstream/retry-after.js';

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
