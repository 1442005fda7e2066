import { describe, expect, it } from 'vitest';
import { memoized } from '../../src/engine/memo.js';

describe('memoized: a bounded memo of page-derived keys', () => {
  it('computes each key once, an undefined value included, and stays within its limit', () => {
    const memo = new Map<string, string | undefined>();
    const calls: string[] = [];
    const compute = (key: string): string | undefined => {
      calls.push(key);
      return key === 'none' ? undefined : key.toUpperCase();
    };
    expect(memoized(memo, 3, 'a', compute)).toBe('A');
    expect(memoized(memo, 3, 'a', compute)).toBe('A');
    expect(memoized(memo, 3, 'none', compute)).toBeUndefined();
    expect(memoized(memo, 3, 'none', compute)).toBeUndefined();
    expect(calls, 'once per key').toEqual(['a', 'none']);
    for (const key of ['b', 'c', 'd', 'e', 'f']) memoized(memo, 3, key, compute);
    expect(memo.size, 'emptied when full, never past the limit').toBeLessThanOrEqual(3);
  });
});
