/**
 * The verified-claims cache on its own, with a manual clock: how long a verification is reused
 * (the token's expiry or the window, whichever comes first), and what makes it verify again.
 * Revocation through the real verifier and servers is in caching.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { ClaimsCache } from '../../../src/service/auth/claims-cache.js';
import { ManualClock } from '../helpers/harness.js';

const WINDOW = 2000;

describe('ClaimsCache', () => {
  const setup = () => {
    const clock = new ManualClock();
    const nowSeconds = clock.now().getTime() / 1000;
    return { clock, nowSeconds, cache: new ClaimsCache<{ exp: number; sub: string }>({ clock, maxAgeMs: WINDOW }) };
  };

  test('reused until the window ends, then verified again', () => {
    const { clock, nowSeconds, cache } = setup();
    const claims = { exp: nowSeconds + 3600, sub: 'a' };
    expect(cache.remember('token', claims), 'remember passes the claims through').toBe(claims);
    expect(cache.get('token'), 'reused at once').toBe(claims);
    clock.advance(WINDOW - 1);
    expect(cache.get('token'), 'reused just inside the window').toBe(claims);
    clock.advance(1);
    expect(cache.get('token'), 'not at the window').toBeUndefined();
    expect(cache.size, 'and dropped').toBe(0);
  });

  test('never past the token expiry, even inside the window', () => {
    const { clock, nowSeconds, cache } = setup();
    const claims = { exp: nowSeconds + 1, sub: 'a' };
    cache.remember('token', claims);
    clock.advance(999);
    expect(cache.get('token'), 'the last millisecond before exp').toBe(claims);
    clock.advance(1);
    expect(cache.get('token'), 'expired at exp, as jose decides').toBeUndefined();
    cache.remember('late', { exp: nowSeconds, sub: 'b' });
    expect(cache.get('late'), 'an already-expired token is not kept').toBeUndefined();
  });

  test('a clock set back verifies again; window 0 keeps nothing; only the given token matches', () => {
    const { clock, nowSeconds, cache } = setup();
    cache.remember('token', { exp: nowSeconds + 3600, sub: 'a' });
    expect(cache.get('token.'), 'another string is another token').toBeUndefined();
    clock.advance(-1);
    expect(cache.get('token'), 'clock went back').toBeUndefined();
    const off = new ClaimsCache<{ exp: number }>({ clock, maxAgeMs: 0 });
    off.remember('token', { exp: nowSeconds + 3600 });
    expect([off.get('token'), off.size], 'window 0: nothing kept').toEqual([undefined, 0]);
  });

  test('bounded by count: the least recently used go first', () => {
    const { nowSeconds, clock } = setup();
    const cache = new ClaimsCache<{ exp: number; sub: string }>({ clock, maxAgeMs: WINDOW, maxTokens: 3 });
    for (const t of ['a', 'b', 'c']) cache.remember(t, { exp: nowSeconds + 60, sub: t });
    cache.get('a');
    cache.remember('d', { exp: nowSeconds + 60, sub: 'd' });
    expect(['a', 'b', 'c', 'd'].map((t) => cache.get(t)?.sub), 'b, the least recently used, went').toEqual(['a', undefined, 'c', 'd']);
  });
});
