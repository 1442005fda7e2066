/**
 * Math, one rule everywhere (src/engine/math.ts): a displayed formula is a `formula` Part carrying
 * its TeX; an inline formula is its TeX in the running text. The markup below follows the corpus:
 * Coset.html (Parsoid, `<div class="mwe-math-element">` with `<math display="block">`), Body mass
 * index.html (`:<math>` as `<dl><dd>` around an inline formula), simplewiki Albert Einstein
 * (inline `E=mc^2` in a paragraph); the formulas are shortened.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listPart } from '../../src/engine/blocks/list.js';
import { findFirst, parseHtml, tagName } from '../../src/engine/dom.js';
import { inline } from '../../src/engine/inline.js';
import { formulaPart, isBlockFormula, unwrapTex } from '../../src/engine/math.js';
import { parse } from '../../src/index.js';
import { enContext, first } from './walk/harness.js';

/** Parsoid's displayed formula (Coset.html): a div wrapper, MathML display="block", the display image. */
const DISPLAYED = (tex: string) =>
  `<div class="mwe-math-element" typeof="mw:Extension/math" data-mw='{"name":"math","attrs":{"display":"block"}}'>` +
  `<div class="mwe-math-mathml-display mwe-math-mathml-a11y" style="display: none;"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block" alttext="{\\displaystyle ${tex}}"><semantics><mrow><mi>G</mi></mrow></semantics></math></div>` +
  `<img src="https://wikimedia.org/api/rest_v1/media/math/render/svg/x" class="mwe-math-fallback-image-display mw-invert skin-invert" aria-hidden="true" alt="{\\displaystyle ${tex}}"/></div>`;

/** An inline formula (Body mass index.html inside <dd>, simplewiki Albert Einstein inside <p>). */
const INLINE = (tex: string) =>
  `<span class="mwe-math-element" typeof="mw:Extension/math"><span class="mwe-math-mathml-inline mwe-math-mathml-a11y" style="display: none;"><math xmlns="http://www.w3.org/1998/Math/MathML" alttext="{\\displaystyle ${tex}}"><semantics><mi>E</mi></semantics></math></span>` +
  `<img src="https://wikimedia.org/api/rest_v1/media/math/render/svg/y" class="mwe-math-fallback-image-inline mw-invert skin-invert" aria-hidden="true" alt="{\\displaystyle ${tex}}"/></span>`;

describe('displayed formulas', () => {
  it('a Parsoid display formula is a formula part with its TeX, the {\\displaystyle} wrapper taken off', () => {
    const el = first(`<section>${DISPLAYED('|G|=[G:H]|H|.')}</section>`, 'div');
    expect(isBlockFormula(el)).toBe(true);
    expect(formulaPart(el)).toEqual({ type: 'formula', value: '|G|=[G:H]|H|.' });
  });

  it('newer Math output: a span wrapper with the block class is displayed too', () => {
    const html = `<p>x</p><span class="mwe-math-element mwe-math-element-block"><math display="block" alttext="{\\displaystyle a^{2}+b^{2}=c^{2}}"></math></span>`;
    const el = findFirst(parseHtml(html), (e) => tagName(e) === 'span')!;
    expect(isBlockFormula(el)).toBe(true);
    expect(formulaPart(el)).toEqual({ type: 'formula', value: 'a^{2}+b^{2}=c^{2}' });
  });

  it('skin pages: without MathML, the TeX is read from the display image alt', () => {
    const html = `<div class="mwe-math-element"><img class="mwe-math-fallback-image-display" alt="{\\displaystyle x\\in V}"/></div>`;
    const el = first(html, 'div');
    expect(isBlockFormula(el)).toBe(true);
    expect(formulaPart(el)).toEqual({ type: 'formula', value: 'x\\in V' });
  });

  it('an inline formula in a paragraph is not displayed', () => {
    const el = findFirst(parseHtml(`<p>The formula ${INLINE('E=mc^{2}')} is famous.</p>`), (e) => tagName(e) === 'span')!;
    expect(isBlockFormula(el)).toBe(false);
  });

  it('a formula without any TeX gives no part (nothing to show)', () => {
    const el = first('<div class="mwe-math-element"><div class="mwe-math-mathml-display"><math display="block"></math></div></div>', 'div');
    expect(isBlockFormula(el)).toBe(true);
    expect(formulaPart(el)).toBeUndefined();
  });
});

describe('formulas in definition lists (wikitext ":<math>")', () => {
  const bmi = `<dl id="mwbQ"><dd id="mwbg">${INLINE('\\mathrm {BMI} ={\\frac {m}{h^{2}}}')}</dd></dl>`;

  it('a <dl> that holds only one formula is the formula, not a list of raw LaTeX', () => {
    const dl = first(bmi, 'dl');
    expect(isBlockFormula(dl)).toBe(true);
    expect(formulaPart(dl)).toEqual({ type: 'formula', value: '\\mathrm {BMI} ={\\frac {m}{h^{2}}}' });
    expect(listPart(dl, enContext(), 0), 'blocks/list.ts gives the same part').toEqual({ type: 'formula', value: '\\mathrm {BMI} ={\\frac {m}{h^{2}}}' });
  });

  it('end to end: the section holds the formula part where the list was (Body mass index.html)', () => {
    const html = `<body><section data-mw-section-id="1"><h2>Usage</h2><p>It is defined as:</p>${bmi}<p>where m is the mass.</p></section></body>`;
    expect(parse(html).sections[1]!.has_parts).toEqual([
      { type: 'paragraph', value: 'It is defined as:' },
      { type: 'formula', value: '\\mathrm {BMI} ={\\frac {m}{h^{2}}}' },
      { type: 'paragraph', value: 'where m is the mass.' },
    ]);
  });

  it('"::<math>": a formula indented twice (a dl inside the dd) is still the formula', () => {
    const dl = first(`<dl><dd><dl><dd>${INLINE('x=1')}</dd></dl></dd></dl>`, 'dl');
    expect(formulaPart(dl)).toEqual({ type: 'formula', value: 'x=1' });
  });

  it('a definition list with text beside the formula stays a list, the formula as TeX in its item', () => {
    const dl = first(`<dl><dd>where ${INLINE('m')} is the mass</dd></dl>`, 'dl');
    expect(isBlockFormula(dl)).toBe(false);
    expect(listPart(dl, enContext(), 0)).toEqual({ type: 'list', has_parts: [{ type: 'list_item', value: 'where m is the mass' }] });
  });

  it('in a longer definition list, an item that is only a formula holds a formula part', () => {
    const dl = first(`<dl><dt>Mass</dt><dd>${INLINE('m')}</dd></dl>`, 'dl');
    expect(isBlockFormula(dl), 'two items: a list').toBe(false);
    expect(listPart(dl, enContext(), 0)).toEqual({
      type: 'list',
      has_parts: [
        { type: 'list_item', value: 'Mass' },
        { type: 'list_item', has_parts: [{ type: 'formula', value: 'm' }] },
      ],
    });
  });

  it('an ordinary definition list is not a formula', () => {
    expect(isBlockFormula(first('<dl><dd>just text</dd></dl>', 'dl'))).toBe(false);
    expect(isBlockFormula(first('<dl></dl>', 'dl')), 'empty').toBe(false);
  });
});

describe('inline formulas', () => {
  it('are their TeX in the running text, with the wrapper removed (simplewiki Albert Einstein)', () => {
    const p = first(`<p>Einstein's ${INLINE('E=mc^{2}')} formula.</p>`, 'p');
    expect(inline(p, enContext()).value).toBe("Einstein's E=mc^{2} formula.");
  });

  it('a displayed formula met inside running text (a table cell, a list item) is its TeX there', () => {
    const td = first(`<table><tr><td>${DISPLAYED('|G|=[G:H]|H|.')}</td></tr></table>`, 'td');
    expect(inline(td, enContext()).value).toBe('|G|=[G:H]|H|.');
  });
});

describe('unwrapTex', () => {
  it('takes off {\\displaystyle …} and {\\textstyle …}, and trims', () => {
    expect(unwrapTex(' {\\displaystyle  E=hf } ')).toBe('E=hf');
    expect(unwrapTex('{\\textstyle \\sum _{i}x_{i}}')).toBe('\\sum _{i}x_{i}');
  });

  it('keeps TeX without a wrapper as written: no brace of the formula is eaten', () => {
    expect(unwrapTex('x^{2}')).toBe('x^{2}');
    expect(unwrapTex('{\\displaystyle a}+{b}'), 'the opening brace closes before the end').toBe('{\\displaystyle a}+{b}');
    expect(unwrapTex('{\\displaystyles x}'), 'another command').toBe('{\\displaystyles x}');
  });

  it('skips escaped braces when it looks for the wrapper end', () => {
    expect(unwrapTex('{\\displaystyle \\{0\\}}')).toBe('\\{0\\}');
  });

  it('wrapping any TeX in {\\displaystyle …} and unwrapping it gives the TeX back, trimmed', () => {
    // Balanced TeX: what the Math extension puts inside its wrapper.
    const group: fc.Arbitrary<string> = fc.letrec<{ tex: string }>((tie) => ({
      tex: fc.oneof(
        { depthSize: 'small' },
        fc.stringMatching(/^[a-z0-9 +=^_]{0,6}$/),
        fc.constantFrom('\\frac ', '\\alpha', '\\{', '\\}', '\\\\'),
        tie('tex').map((t) => `{${t}}`),
        fc.tuple(tie('tex'), tie('tex')).map(([a, b]) => a + b),
      ),
    })).tex;
    fc.assert(fc.property(group, (tex) => unwrapTex(`{\\displaystyle ${tex}}`) === tex.trim()));
  });
});
