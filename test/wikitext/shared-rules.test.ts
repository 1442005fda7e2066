/**
 * Rules the two front doors share, so that the same page says the same thing through either:
 * one infobox matcher, citation templates typed per wiki, one TeX normalisation. Plus the
 * wikitext door's literal text (<nowiki>) carrying any character, private-use ones included.
 * Expected values are read off the markup written here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, parseWikitext } from '../../src/index.js';
import type { Article, Part } from '../../src/index.js';
import { isInfoboxTemplate } from '../../src/engine/grammar.js';
import { templateKind } from '../../src/engine/wikitext/grammar.js';
import { GRAMMAR } from '../../src/engine/grammar/load.js';

const lead = (a: Article): Part[] => a.sections[0]?.has_parts ?? [];

/** Attribute-escaped JSON, as Parsoid writes data-mw (between double quotes). */
const attribute = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

describe('one infobox matcher for both doors', () => {
  const { names, prefixes } = GRAMMAR.wikitext.infobox;

  it('the wikitext door reads as an infobox exactly the templates the HTML door does', () => {
    const written = [...names.map((r) => r.match), ...prefixes.map((r) => `${r.match} person`)];
    // As editors write them: capitalised, underscores, a namespace prefix.
    const variants = written.flatMap((n) => [n, n.toUpperCase(), `Template:${n.replace(/ /g, '_')}`]);
    for (const name of variants) {
      expect(isInfoboxTemplate(name), name).toBe(true);
      expect(templateKind(name).kind, name).toBe('infobox');
    }
    for (const name of ['Reflist', 'Cite web', 'Bio2', 'Short description', 'Info']) {
      expect(isInfoboxTemplate(name), name).toBe(false);
      expect(templateKind(name).kind, name).not.toBe('infobox');
    }
  });

  it('property: templateKind says infobox iff isInfoboxTemplate does', () => {
    const piece = fc.constantFrom(...names.map((r) => r.match), ...prefixes.map((r) => r.match), 'cite', 'x', ' ', '_', ':', 'Template:', 'reflist');
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 4 }), (parts) => {
        const name = parts.join('');
        expect(templateKind(name).kind === 'infobox').toBe(isInfoboxTemplate(name));
      }),
      { numRuns: 300 },
    );
  });
});

describe('citation templates are typed per wiki on both doors', () => {
  /** A Parsoid page of `lang`'s wiki whose one reference's entry is `entry`. */
  const parsoidPage = (lang: string, entry: string): string =>
    `<html lang="${lang}"><head><base href="//${lang}.wikipedia.org/wiki/"/></head><body lang="${lang}"><section data-mw-section-id="0">` +
    `<p>Claim.<sup typeof="mw:Extension/ref" class="mw-ref reference"><a href="./T#cite_note-1">[1]</a></sup></p>` +
    `<ol class="mw-references references" typeof="mw:Extension/references"><li id="cite_note-1"><span class="mw-reference-text">${entry}</span></li></ol></section></body></html>`;
  const dataMw = attribute(JSON.stringify({ parts: [{ template: { target: { wt: 'Citation', href: './Template:Citation' }, params: { 1: { wt: 'Top secret' } }, i: 0 } }] }));
  const quoteHtml = `« <span typeof="mw:Transclusion" data-mw="${dataMw}"><i>Top secret</i></span> ».`;
  const quoteWikitext = 'Claim.<ref>« {{Citation|Top secret}} ».</ref>\n\n{{Références}}';

  it("frwiki's {{Citation}} in a <ref> is a quotation: type text, no template, on both doors", () => {
    const [html] = parse(parsoidPage('fr', quoteHtml)).references;
    const [wikitext] = parseWikitext(quoteWikitext, { name: 'T', project: 'frwiki', language: 'fr' }).references;
    for (const ref of [html, wikitext]) {
      expect(ref?.type).toBe('text');
      expect(ref?.template).toBeUndefined();
      expect(ref?.metadata).toEqual({});
      expect(ref?.text.value).toBe('« Top secret ».');
    }
  });

  it("elsewhere {{Citation}} is CS2's citation template, on both doors", () => {
    const [html] = parse(parsoidPage('en', quoteHtml)).references;
    const [wikitext] = parseWikitext(quoteWikitext, { name: 'T', project: 'enwiki', language: 'en' }).references;
    expect(html?.type).toBe('citation');
    expect(wikitext?.type).toBe('citation');
    expect(wikitext?.template?.name).toBe('Citation');
  });
});

describe('one TeX normalisation for both doors', () => {
  /** A displayed formula as Parsoid renders it, the TeX in the MathML alttext. */
  const htmlFormula = (tex: string): Part[] =>
    lead(
      parse(
        `<section data-mw-section-id="0"><p>Before.</p><span class="mwe-math-element mwe-math-element-block" typeof="mw:Extension/math"><math display="block" alttext="${attribute(tex)}"><mi>x</mi></math></span><p>After.</p></section>`,
      ),
    );
  const wikitextFormula = (tex: string): Part[] => lead(parseWikitext(`Before.\n<math display="block">${tex}</math>\nAfter.`, { name: 'T', project: 'enwiki', language: 'en' }));

  it.each([
    ['{\\displaystyle E=mc^{2}}', 'E=mc^{2}'],
    ['{\\textstyle a^{2}+b^{2}}', 'a^{2}+b^{2}'],
    // Two groups, not one wrapper: stays as written (a trimming regex once gave "a}+{b").
    ['{\\displaystyle a}+{b}', '{\\displaystyle a}+{b}'],
    ['{\\displaystyles x}', '{\\displaystyles x}'],
    ['  \\frac{1}{2}  ', '\\frac{1}{2}'],
  ])('%s → %s through parse and parseWikitext', (tex, expected) => {
    const want = [
      { type: 'paragraph', value: 'Before.' },
      { type: 'formula', value: expected },
      { type: 'paragraph', value: 'After.' },
    ];
    expect(htmlFormula(tex)).toEqual(want);
    expect(wikitextFormula(tex)).toEqual(want);
  });

  it('property: the same TeX gives the same formula value through both doors', () => {
    const token = fc.constantFrom('{', '}', '\\displaystyle ', '\\textstyle ', 'a', 'x^2', '+', ' ', '\\{', '\\}', '\\frac');
    const tex = fc
      .array(token, { minLength: 1, maxLength: 8 })
      .map((t) => t.join(''))
      // Text that is a formula on both doors: the wikitext parser closes <math> at its first "</", and
      // TeX that trims to nothing is no formula on either.
      .filter((t) => t.trim().length > 0);
    fc.assert(
      fc.property(tex, (t) => {
        const formula = (parts: Part[]): string | undefined => parts.find((p) => p.type === 'formula')?.value;
        expect(formula(wikitextFormula(t))).toBe(formula(htmlFormula(t)));
      }),
      { numRuns: 200 },
    );
  });
});

describe('<nowiki> text comes out as written, private-use characters included', () => {
  const meta = { name: 'T', project: 'enwiki', language: 'en' };
  const value = (text: string): string | undefined => lead(parseWikitext(text, meta))[0]?.value;

  it('keeps private-use characters of the sentinel range, in and out of <nowiki>', () => {
    expect(value('x <nowiki>\uE000a\uE001 [[b]] \uE011</nowiki> y')).toBe('x \uE000a\uE001 [[b]] \uE011 y');
    expect(value('x \uE000a\uE006 y')).toBe('x \uE000a\uE006 y');
    // U+E010 is the renderer's mark of an empty template; written by the author it is text.
    expect(value('x (\uE010) y')).toBe('x (\uE010) y');
    expect(value('x \uE01105 y')).toBe('x \uE01105 y');
  });

  it('property: any string inside <nowiki> comes out as written', () => {
    const char = fc.oneof(
      fc.constantFrom('[', ']', '{', '}', "'", '<', '>', '|', '=', '*', '#', ':', 'a', 'b', '0', '5', ' '),
      fc.integer({ min: 0xe000, max: 0xe012 }).map((c) => String.fromCharCode(c)),
    );
    // "<" could open a closing tag of <nowiki> itself, so the content holds no "</".
    const content = fc
      .array(char, { minLength: 1, maxLength: 24 })
      .map((c) => c.join(''))
      .filter((s) => s.trim().length > 0 && !s.includes('</'));
    // Modulo the whitespace rules of every value (runs collapsed, none before ":" …): every
    // other character exactly as written, in order.
    const unspaced = (s: string | undefined): string | undefined => s?.replace(/ /g, '');
    fc.assert(
      fc.property(content, (s) => {
        expect(unspaced(value(`x <nowiki>${s}</nowiki> y`))).toBe(unspaced(`x${s}y`));
      }),
      { numRuns: 300 },
    );
  });
});
