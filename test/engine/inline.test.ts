/**
 * Superscripts in running text (src/engine/inline.ts): a numeric superscript after a letter, digit
 * or closing bracket is written with a caret, so that "a<sup>3</sup>" does not read "a3"; ordinals
 * and reference markers are not exponents. Markup follows Coset.html (the dihedral group),
 * Body mass index.html (units), simplewiki Albert Einstein (E=mc²) and frwiki ordinals.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paragraphPart } from '../../src/engine/blocks/paragraph.js';
import { listPart } from '../../src/engine/blocks/list.js';
import { inline } from '../../src/engine/inline.js';
import { enContext, first } from './walk/harness.js';

const text = (html: string, options = {}) => inline(first(`<div>${html}</div>`, 'div'), enContext(), options).value;

describe('superscripts', () => {
  it('an exponent after a letter gets a caret (Coset.html: "a3 = b2 = I" read as other symbols)', () => {
    const html = 'In this group, <i>a</i><sup id="mwAXk">3</sup> = <i>b</i><sup>2</sup> = <i>I</i> and <i>ba</i> = <i>a</i><sup>2</sup><i>b</i>.';
    expect(text(html)).toBe('In this group, a^3 = b^2 = I and ba = a^2b.');
  });

  it('after a digit, a slash-unit or a bracket (Body mass index.html)', () => {
    expect(text('a factor of 703 (kg/m<sup>2</sup>)/(lb/in<sup>2</sup>)')).toBe('a factor of 703 (kg/m^2)/(lb/in^2)');
    expect(text('10<sup>−34</sup> and (pc)<sup>2</sup>')).toBe('10^−34 and (pc)^2');
  });

  it('ordinals and other non-numeric superscripts stay glued', () => {
    expect(text('le 1<sup>er</sup> janvier, the 19<sup>th</sup> century, Louis XIV<sup>e</sup>')).toBe('le 1er janvier, the 19th century, Louis XIVe');
  });

  it('a superscript that does not follow a word or number is no exponent', () => {
    expect(text('see note <sup>1</sup> below')).toBe('see note 1 below');
  });

  it('reference markers are citations, never exponents', () => {
    const html = 'mass<sup class="mw-ref reference" typeof="mw:Extension/ref"><a href="./X#cite_note-9"><span class="mw-reflink-text">[9]</span></a></sup> here';
    const out = inline(first(`<p>${html}</p>`, 'p'), enContext());
    expect(out.value).toBe('mass here');
    expect(out.citations).toEqual([{ identifier: 'cite_note-9', text: '[9]' }]);
  });

  it('one rule in paragraphs and list items; a caller may turn it off', () => {
    expect(paragraphPart(first('<p>E=mc<sup>2</sup></p>', 'p'), enContext(), 0)?.value).toBe('E=mc^2');
    expect(listPart(first('<ul><li>km<sup>2</sup></li></ul>', 'ul'), enContext(), 0)).toEqual({ type: 'list', has_parts: [{ type: 'list_item', value: 'km^2' }] });
    expect(text('x<sup>2</sup>', { markSuperscripts: false })).toBe('x2');
  });

  it('an exponent on empty parentheses keeps or drops them as the unmarked text does', () => {
    // fast-check's counterexamples: a caret must not decide whether "()" is an empty pair.
    expect(text('()<sup>0</sup>')).toBe('()^0');
    expect(text('()<sup>0</sup>', { markSuperscripts: false })).toBe('()0');
    expect(text('()<sup>−a</sup>')).toBe('−a');
    expect(text('()<sup>−a</sup>', { markSuperscripts: false })).toBe('−a');
  });

  it('never changes the text but for the carets it adds', () => {
    const piece = fc.oneof(fc.stringMatching(/^[a-z0-9 ()]{0,4}$/), fc.stringMatching(/^[0-9a-z−]{1,3}$/).map((s) => `<sup>${s}</sup>`));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const html = pieces.join('');
        const plain = text(html, { markSuperscripts: false });
        const marked = text(html);
        expect(marked.replace(/\^/g, '')).toBe(plain);
      }),
      { numRuns: 2000 },
    );
  });
});
