/** Plain-text rendering (inline.ts), the abstract (abstract.ts) and the noise rules (rules.ts). */
import { describe, expect, it } from 'vitest';
import { CUT, removeCutParentheses } from '../../src/engine/cut.js';
import { clean } from '../../src/engine/text.js';
import { isHiddenStyle } from '../../src/engine/rules.js';
import { parse } from '../../src/index.js';

const lead = (body: string): ReturnType<typeof parse> =>
  parse(`<html><head><base href="//en.wikipedia.org/wiki/"/></head><body><section data-mw-section-id="0">${body}</section></body></html>`);

describe('clean()', () => {
  it('collapses whitespace and never leaves a space before closing punctuation', () => {
    expect(clean('  a \n\t b  ')).toBe('a b');
    expect(clean('word , next . end ; ( inner ) [ x ]')).toBe('word, next. end; (inner) [x]');
  });
});

describe('inline text', () => {
  it('separates words at block boundaries and joins inline elements', () => {
    const a = lead('<p>one<br/>two <b>th</b>ree</p><ul><li>four<div>five</div></li></ul>');
    const [paragraph, list] = a.sections[0]!.has_parts!;
    expect(paragraph!.value, '<br> separates, <b> joins').toBe('one two three');
    expect(list!.has_parts![0]!.value, 'a div inside an item separates').toBe('four five');
  });

  it('reads math as its TeX source, not the hidden MathML', () => {
    const a = lead('<p>Mass <span class="mwe-math-element"><span style="display:none"><math alttext="{\\displaystyle E=mc^{2}}"><mi>E</mi></math></span><img alt="{\\displaystyle E=mc^{2}}"/></span> holds.</p>');
    expect(a.sections[0]!.has_parts![0]!.value).toBe('Mass E=mc^{2} holds.');
  });

  it('keeps marker text out of values and records it as citations in order', () => {
    const a = lead(
      '<p>A<sup class="reference" typeof="mw:Extension/ref"><a href="./P#cite_note-2">[2]</a></sup> B<sup class="reference"><a href="#cite_note-n-1">[note 1]</a></sup></p>' +
        '<ol class="references"><li id="cite_note-2">x</li><li id="cite_note-n-1">y</li></ol>',
    );
    const [p] = a.sections[0]!.has_parts!;
    expect(p!.value).toBe('A B');
    expect(p!.citations).toEqual([
      { identifier: 'cite_note-2', text: '[2]' },
      { identifier: 'cite_note-n-1', text: '[note 1]' },
    ]);
  });

  it('gives links without text only their URL', () => {
    const [p] = lead('<p>x<a href="./Empty"></a></p>').sections[0]!.has_parts!;
    expect(p!.links).toEqual([{ url: 'https://en.wikipedia.org/wiki/Empty' }]);
  });
});

describe('the abstract', () => {
  it('cuts a pronunciation guide together with the parenthesis around it', () => {
    expect(removeCutParentheses(`Albert Einstein (${CUT}; 14 March 1879 – 18 April 1955) was`)).toBe('Albert Einstein was');
    expect(removeCutParentheses(`X (born 1950, ${CUT}) is`)).toBe('X is');
    expect(removeCutParentheses(`Y ${CUT} is`), 'a guide outside parentheses goes alone').toBe('Y is');
    expect(removeCutParentheses('Z (or chart) is'), 'other parentheses stay').toBe('Z (or chart) is');
  });

  it('leaves pronunciation in the paragraph but not in the abstract', () => {
    const a = lead('<p><b>Oslo</b> (<span class="IPA">/ˈɒzloʊ/</span> <i>OZ-loh</i>) is a city.</p>');
    expect(a.abstract).toBe('Oslo is a city.');
    expect(a.sections[0]!.has_parts![0]!.value).toBe('Oslo (/ˈɒzloʊ/ OZ-loh) is a city.');
  });

  it('writes lead lists as indented "- " lines after the paragraphs', () => {
    const a = lead('<p>They occur:</p><ul><li>here<ul><li>and here</li></ul></li><li>there</li></ul>');
    expect(a.abstract).toBe('They occur:\n- here\n  - and here\n- there');
  });

  it('is omitted when the lead has no text', () => {
    expect(lead('<figure typeof="mw:File"><img src="//u.org/a.png"/></figure>').abstract).toBeUndefined();
  });
});

describe('hidden styles', () => {
  it('recognise display:none however it is spaced or cased', () => {
    expect(isHiddenStyle('display:none')).toBe(true);
    expect(isHiddenStyle('color: red; DISPLAY : None ;')).toBe(true);
    expect(isHiddenStyle('display:inline')).toBe(false);
    expect(isHiddenStyle('border:none')).toBe(false);
  });
});
