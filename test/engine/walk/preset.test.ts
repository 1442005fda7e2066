/**
 * The HTML preset: every order constraint its comments state, checked on the table itself and on
 * the element that needs it, so that reordering the preset fails here with the reason named.
 */
import { describe, expect, it } from 'vitest';
import { parse } from '../../../src/index.js';
import { HTML_PRESET } from '../../../src/engine/walk/preset.js';
import { Collector } from '../../../src/engine/collector.js';
import { createContext } from '../../../src/engine/context.js';
import { CUT } from '../../../src/engine/cut.js';
import { element, SITE } from './harness.js';

const names = HTML_PRESET.map((r) => r.name);
const at = (name: string): number => {
  const i = names.indexOf(name);
  expect(i, `${name} in the preset`).toBeGreaterThanOrEqual(0);
  return i;
};

describe('HTML preset', () => {
  it('names each rule once', () => {
    expect(new Set(names).size).toBe(names.length);
  });

  it.each([
    ['boilerplate-skip', 'formula', 'inside a skipped section nothing else applies'],
    ['formula', 'noise', 'the MathML holding the TeX is hidden with display:none'],
    ['short-description', 'noise', 'the description element is hidden, hence noise'],
    ['reference-lists', 'noise', 'reference lists are noise as content'],
    ['noise', 'inline', 'noise inside a sentence is dropped, not made inline content'],
    ['inline', 'depth-cap', 'block rules see blocks only'],
    ['depth-cap', 'heading', 'past the cap no block rule recurses'],
    ['paragraph', 'infobox', 'a paragraph may carry an infobox transclusion data-mw (its first element)'],
    ['gallery', 'list', 'a gallery is a <ul>'],
    ['not-in-abstract', 'figure', 'a floated quote box carries a figure class'],
    ['infobox', 'layout-table', 'most infoboxes are tables'],
    ['layout-table', 'table', 'a layout table is looked through, not read'],
  ])('tries %s before %s: %s', (first, then) => {
    expect(at(first)).toBeLessThan(at(then));
  });

  it('ends with the container rule, which takes every element', () => {
    expect(names[names.length - 1]).toBe('container');
  });

  it('breaks the running paragraph on blocks only', () => {
    const nonBreaking = HTML_PRESET.filter((r) => !r.breaks).map((r) => r.name);
    expect(nonBreaking).toEqual(['boilerplate-skip', 'short-description', 'reference-lists', 'noise', 'inline']);
  });

  it('reads a short description although it is noise, and keeps it out of the content', () => {
    const a = parse('<body><div class="shortdescription" style="display:none">A test page</div><p>Text.</p></body>');
    expect(a.description).toBe('A test page');
    expect(JSON.stringify(a.sections)).not.toContain('A test page');
  });

  it('takes the first rule whose test holds for an element', () => {
    const first = (html: string): string | undefined => {
      const el = element(html);
      return HTML_PRESET.find((r) => r.test(el, { tree: { skipping: false } } as never, 1))?.name;
    };
    expect(first('<ul class="gallery"><li>x</li></ul>')).toBe('gallery');
    expect(first('<div class="reflist"><ol class="references"></ol></div>')).toBe('reference-lists');
    expect(first('<div class="quotebox floatright">q</div>')).toBe('not-in-abstract');
    expect(first('<table role="presentation"><tr><td>x</td></tr></table>')).toBe('layout-table');
    expect(first('<b>x</b>')).toBe('inline');
    expect(first('<div>x</div>')).toBe('container');
  });
});

describe('Collector', () => {
  it('hands over what the rules gave it as Extracted, rendering lead paragraphs for the abstract', () => {
    const out = new Collector();
    out.leadParagraph(element('<p>Ada <span class="IPA">[ˈeɪdə]</span> wrote.</p>') as never);
    out.leadList({ type: 'list', has_parts: [{ type: 'list_item', value: 'one' }] });
    out.description('');
    out.description('Mathematician');
    out.description('Later');
    out.infobox({ type: 'infobox', name: 'Box' });
    out.referenceEntries([{ identifier: 'cite_note-1', type: 'text' }] as never);
    const x = out.extracted([{ name: 'abstract', type: 'section' }], createContext(SITE, 'en'));
    expect(x.description).toBe('Mathematician');
    expect(x.infoboxes).toEqual([{ type: 'infobox', name: 'Box' }]);
    expect(x.references.map((r) => r.identifier)).toEqual(['cite_note-1']);
    expect(x.lead[1]).toEqual({ list: { type: 'list', has_parts: [{ type: 'list_item', value: 'one' }] } });
    // The pronunciation guide is replaced by the CUT mark (cut.ts) for the abstract builder.
    expect(x.lead[0]).toEqual({ text: `Ada ${CUT} wrote.` });
  });

  it('leaves out a lead paragraph the wiki marks as a pronunciation guide', () => {
    const out = new Collector();
    out.leadParagraph(element('<p class="IPA">/ˈeɪdə/</p>'));
    expect(out.extracted([], createContext(SITE, 'en')).lead).toEqual([]);
  });
});
