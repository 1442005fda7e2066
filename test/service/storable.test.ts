/**
 * storableText(): what PostgreSQL cannot hold (NUL; lone surrogates, which have no UTF-8 form) is
 * refused with a reason, everything else passes, checked against the definition: a string is
 * storable exactly when it has no NUL and survives a UTF-8 round trip.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { storableText, unstorableReason } from '../../src/service/storable.js';

const roundTrips = (s: string): boolean => Buffer.from(s, 'utf8').toString('utf8') === s;

describe('storable text', () => {
  test('NUL and lone surrogates are refused with their reason; pairs and ordinary text pass', () => {
    expect(unstorableReason('a\u0000b'), 'NUL').toBe('must not contain NUL (\\u0000)');
    for (const s of ['\ud800', 'x\udc00', '\udc00\ud800', '\ud83d\ude00\ude00', 'end\ud83d']) {
      expect(unstorableReason(s), JSON.stringify(s)).toBe('must not contain a lone UTF-16 surrogate (not valid Unicode)');
    }
    for (const s of ['', 'enwiki', 'Édith Piaf', '\ud83d\ude00', '\u2028\uFFFF', '\u0001']) expect(unstorableReason(s), JSON.stringify(s)).toBeUndefined();
  });

  test('property: refused exactly when it has NUL or does not survive UTF-8', () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('\u0000', '\ud800', '\udfff', '\ud83d', '\ude00'), fc.string({ unit: 'binary', maxLength: 1 })) });
    fc.assert(
      fc.property(text, (s) => (unstorableReason(s) === undefined) === (!s.includes('\u0000') && roundTrips(s))),
      { numRuns: 500 },
    );
  });

  test('as a zod schema: keeps the checks it refines, adds its own issue', () => {
    const schema = storableText(z.string().min(1, 'must not be empty'));
    expect(schema.safeParse('ok').success, 'ordinary').toBe(true);
    expect(schema.safeParse('').error?.issues.map((i) => i.message), 'the refined check').toEqual(['must not be empty']);
    expect(schema.safeParse('a\u0000').error?.issues.map((i) => i.message), 'NUL').toEqual(['must not contain NUL (\\u0000)']);
    expect(storableText().safeParse('\ud800').success, 'default: any string').toBe(false);
  });
});
