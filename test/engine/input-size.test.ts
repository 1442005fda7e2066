/**
 * The one input size check (src/engine/input.ts `checkInputSize`), shared by both front doors:
 * its shortcuts on string length must agree with counting UTF-8 bytes, and both doors refuse the
 * same text at the same limit with the same error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputTooLargeError } from '../../src/engine/errors.js';
import { checkInputSize, readWikitextInput } from '../../src/engine/input.js';
import { parse } from '../../src/engine/parse.js';
import { parseWikitext } from '../../src/engine/wikitext/index.js';

const refusal = (fn: () => unknown): { size: number; limit: number } | undefined => {
  try {
    fn();
  } catch (error) {
    if (error instanceof InputTooLargeError) return { size: error.size, limit: error.limit };
    throw error;
  }
  return undefined;
};

describe('checkInputSize', () => {
  it('refuses exactly the texts over the limit in UTF-8 bytes, reporting their byte size', () => {
    // Mixed widths: 1-byte ASCII, 2-byte é, 3-byte €, 4-byte emoji (two UTF-16 units).
    const text = fc.array(fc.constantFrom('a', 'é', '€', '😀', '\n'), { maxLength: 60 }).map((a) => a.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 250 }), (s, limit) => {
        const bytes = Buffer.byteLength(s, 'utf8');
        expect(refusal(() => checkInputSize(s, limit))).toEqual(bytes > limit ? { size: bytes, limit } : undefined);
      }),
    );
  });

  it('is the check of both doors: the same text over the same limit fails the same way', () => {
    const words = 'é'.repeat(600); // 1200 bytes
    const limit = 1000;
    const html = refusal(() => parse(`<p>${words}</p>`, { maxInputBytes: limit }));
    const wikitext = refusal(() => parseWikitext(`<p>${words}</p>`, {}, { maxInputBytes: limit }));
    expect(html).toEqual({ size: 1207, limit });
    expect(wikitext, 'the same count for the same text').toEqual(html);
    expect(refusal(() => readWikitextInput(words, 1200)), 'at the limit it passes').toBeUndefined();
  });
});
