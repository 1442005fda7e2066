/**
 * someToken reads class and typeof lists through a memo of their split tokens (dom.ts): it must
 * see exactly the tokens of a fresh split, in order, for any list, and stay right after the
 * bounded memo has been cleared by many distinct lists.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { someToken } from '../../src/engine/dom.js';

/** HTML's ASCII whitespace, as someToken splits on it. */
const split = (list: string): string[] => list.split(/[ \t\n\f\r]+/).filter((t) => t.length > 0);

const tokensSeen = (list: string): string[] => {
  const seen: string[] = [];
  someToken(list, (t) => {
    seen.push(t);
    return false;
  });
  return seen;
};

const lists = fc.array(fc.oneof(fc.constantFrom(' ', '\t', '\n', '\f', '\r', '\u00a0', 'a', 'b', 'mw-ref', 'é'), fc.string({ maxLength: 3 })), { maxLength: 12 }).map((parts) => parts.join(''));

describe('someToken', () => {
  it('sees the tokens of a fresh split, in order, asked once or twice', () => {
    fc.assert(
      fc.property(lists, (list) => {
        expect(tokensSeen(list)).toEqual(split(list));
        expect(tokensSeen(list)).toEqual(split(list));
      }),
    );
  });

  it('stops at the first token the callback accepts', () => {
    const seen: string[] = [];
    expect(someToken(' reference  mw-ref noprint', (t) => (seen.push(t), t === 'mw-ref'))).toBe(true);
    expect(seen).toEqual(['reference', 'mw-ref']);
    expect(someToken('a b', () => false)).toBe(false);
    expect(someToken(undefined, () => true)).toBe(false);
  });

  it('stays right past the memo bound (thousands of distinct lists)', () => {
    for (let i = 0; i < 10_000; i++) expect(tokensSeen(`x${i} y`)).toEqual([`x${i}`, 'y']);
    expect(tokensSeen('x1 y')).toEqual(['x1', 'y']);
  });
});
