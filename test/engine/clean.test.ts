/** text.ts: the single-pass `clean` against the regex chain it replaces. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clean, isJsSpace } from '../../src/engine/text.js';

/** The specification: the regex chain `clean` used to be. */
const reference = (text: string): string =>
  text.replace(/\s+/g, ' ').replace(/ ([,.;:!?%)\]])/g, '$1').replace(/([(\[]) /g, '$1').trim();

/** Every JavaScript whitespace character, and the punctuation the rules look at, dense. */
const WHITESPACE = [...'\t\n\v\f\r \u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'];
const tricky = fc.string({
  unit: fc.oneof(fc.constantFrom(...WHITESPACE, ...',.;:!?%)](['), fc.constantFrom('a', 'é', '\u200b', '\u0085', '\u180e')),
  maxLength: 40,
});

describe('clean()', () => {
  it('agrees with the regex chain on whitespace- and punctuation-dense strings', () => {
    fc.assert(fc.property(tricky, (s) => clean(s) === reference(s)), { numRuns: 20_000 });
  });

  it('agrees with the regex chain on arbitrary Unicode', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => clean(s) === reference(s)), { numRuns: 2_000 });
  });

  it('isJsSpace is exactly /\\s/ on the whole Basic Multilingual Plane', () => {
    for (let c = 0; c <= 0xffff; c++) {
      if (isJsSpace(c) !== /\s/.test(String.fromCharCode(c))) expect.fail(`U+${c.toString(16)}`);
    }
  });

  it('returns the very string when it needs no change', () => {
    const s = 'already clean (text), with one space.';
    expect(clean(s)).toBe(s);
    expect(clean('( a , b )  [ c ] \n')).toBe('(a, b) [c]');
  });
});
