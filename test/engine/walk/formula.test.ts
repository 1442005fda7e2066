/**
 * The formula rule, with math.ts (a placeholder until the math rule lands) replaced by a stand-in
 * that recognises `.test-formula`: proves the rule makes a formula block and that the preset tries
 * it before noise, which would drop a formula hidden with display:none.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Element } from '../../../src/engine/dom.js';
import { attr } from '../../../src/engine/dom.js';

vi.mock('../../../src/engine/math.js', () => ({
  isBlockFormula: (el: Element) => attr(el, 'class') === 'test-formula',
  formulaPart: (el: Element) => (attr(el, 'data-tex') === undefined ? undefined : { type: 'formula', value: attr(el, 'data-tex') }),
}));

const { extract } = await import('../../../src/engine/sections.js');
const { createContext } = await import('../../../src/engine/context.js');
const { body, SITE } = await import('./harness.js');

describe('formula rule', () => {
  it('makes a formula block, ending the paragraph before it, even when the element is hidden', () => {
    const html = '<div>E is <span class="test-formula" style="display:none" data-tex="E=mc^2">…</span> energy.</div>';
    const x = extract(body(html), createContext(SITE, 'en'));
    expect(x.sections[0]!.has_parts).toEqual([
      { type: 'paragraph', value: 'E is' },
      { type: 'formula', value: 'E=mc^2' },
      { type: 'paragraph', value: 'energy.' },
    ]);
    // Formulas are not abstract lines.
    expect(x.lead).toEqual([{ text: 'E is' }, { text: 'energy.' }]);
  });

  it('makes nothing of a formula without TeX', () => {
    const x = extract(body('<p>a</p><div class="test-formula">?</div>'), createContext(SITE, 'en'));
    expect(x.sections[0]!.has_parts).toEqual([{ type: 'paragraph', value: 'a' }]);
  });
});
