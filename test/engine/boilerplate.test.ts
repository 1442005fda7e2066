/**
 * Boilerplate sections by what they hold (src/engine/boilerplate.ts) and by the title lists of
 * grammar/sections.json: a reference list, a list of links out, navigation boxes are boilerplate in
 * any language; a list of works, a see-also list, a section holding only a hatnote are not.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { holdsOnlyBoilerplate } from '../../src/engine/boilerplate.js';
import { childNodes, parseHtml } from '../../src/engine/dom.js';
import { boilerplateTitles, headingKey } from '../../src/engine/grammar.js';
import { GRAMMAR } from '../../src/engine/grammar/load.js';
import { parse } from '../../src/index.js';

const holds = (html: string): boolean => holdsOnlyBoilerplate(childNodes(parseHtml(html)));

const refs = '<div class="mw-references-wrap" typeof="mw:Extension/references"><ol class="mw-references references"><li id="cite_note-1">Smith 2001.</li></ol></div>';
const extLinks = '<ul><li><a rel="mw:ExtLink" class="external text" href="https://example.org">Official website</a></li><li>(en) <a rel="mw:ExtLink" class="external text" href="https://example.org/db">Entry in the peak register</a></li></ul>';
const navbox = '<div role="navigation" class="navbox"><table><tbody><tr><td><a rel="mw:WikiLink" href="./A">A</a></td></tr></tbody></table></div>';

describe('what a section holds', () => {
  it('is boilerplate when it holds only reference lists, links out or navigation boxes, besides structure and noise', () => {
    expect(holds(refs), 'a reference list').toBe(true);
    expect(holds(`<h3>Notes</h3>${refs}<style>.x{}</style>`), 'under a subheading, with a style').toBe(true);
    expect(holds(extLinks), 'a list of external links').toBe(true);
    expect(holds(`${extLinks}${navbox}`), 'links out and a navbox').toBe(true);
    expect(holds('<div class="mw-references-placeholder"></div>'), 'mobile-html stand-in of a reference list').toBe(true);
    expect(holds('<table class="sidebar nomobile"><tbody><tr><td>Library resources</td></tr></tbody></table>'), '{{Library resources box}}').toBe(true);
  });

  it('is content as soon as it holds text of its own', () => {
    expect(holds(`<p>The river floods every year.</p>${refs}`)).toBe(false);
    expect(holds(`${refs}loose text`)).toBe(false);
    expect(holds('<table class="wikitable"><tbody><tr><td>1</td></tr></tbody></table>')).toBe(false);
  });

  it('keeps lists whose items open with their own text or a wiki link, even with a link out in each', () => {
    const works = '<ul><li><a rel="mw:WikiLink" href="./L%C3%A9o_Ferr%C3%A9">Léo Ferré</a>, <i>Les Anarchistes</i>, 1969, <a rel="mw:ExtLink" href="https://e.org/1">écouter en ligne</a>.</li></ul>';
    expect(holds(works), 'recordings with a listen-online link').toBe(false);
    expect(holds('<ul><li>Kwaya ya Moshi, <i>Kilele</i>, <a rel="mw:ExtLink" href="https://e.org/2">sikiliza</a></li></ul>'), 'text first').toBe(false);
    expect(holds('<ul><li><a rel="mw:WikiLink" href="./A">A</a></li><li><a rel="mw:WikiLink" href="./B">B</a></li></ul>'), 'a see-also list').toBe(false);
    expect(holds('<ul><li><cite class="citation book"><a rel="mw:ExtLink" href="https://e.org/b">A Book</a>. 2001.</cite></li></ul>'), 'a list of citations').toBe(false);
  });

  it('decides nothing for a section without any of the three: its heading stays', () => {
    expect(holds(''), 'empty').toBe(false);
    expect(holds('<div role="note" class="hatnote navigation-not-searchable">Main article: <a href="./X">X</a></div>'), 'only a hatnote').toBe(false);
    expect(holds('<table class="ambox"><tbody><tr><td>This section is empty.</td></tr></tbody></table>'), 'only a maintenance box').toBe(false);
  });
});

const parsoidPage = (lang: string, sections: string): string =>
  `<!DOCTYPE html><html><head><meta property="mw:htmlVersion" content="2.8.0"/><base href="//${lang}.wikipedia.org/wiki/"/><meta http-equiv="content-language" content="${lang}"/><title>T</title></head><body class="mw-parser-output"><section data-mw-section-id="0"><p>Lead.<sup class="mw-ref reference" typeof="mw:Extension/ref"><a href="./T#cite_note-1">[1]</a></sup></p></section>${sections}</body></html>`;
const names = (html: string): (string | undefined)[] => parse(html).sections.map((s) => s.name);

describe('boilerplate sections in a walk', () => {
  it('drop a Parsoid section by what it holds in a language nobody listed, still reading its references', () => {
    const html = parsoidPage(
      'sw',
      `<section data-mw-section-id="1"><h2>Historia</h2><p>Text.</p></section><section data-mw-section-id="2"><h2>Marejeo</h2>${refs}</section><section data-mw-section-id="3"><h2>Viungo vya nje</h2>${extLinks}${navbox}</section>`,
    );
    expect(names(html)).toEqual(['abstract', 'Historia']);
    expect(parse(html).references.map((r) => r.identifier)).toEqual(['cite_note-1']);
  });

  it('drop a flat (rendered) section by what it holds up to the next heading of its level', () => {
    const html = `<html lang="sw"><head><title>T</title></head><body><div id="mw-content-text"><div class="mw-parser-output"><p>Lead.</p><div class="mw-heading mw-heading2"><h2>Marejeo</h2></div><div class="reflist"><ol class="references"><li id="cite_note-1">Smith.</li></ol></div><h2>Historia</h2><p>Text.</p><h2>Viungo</h2><h3>Tovuti</h3>${extLinks}</div></div></body></html>`;
    expect(names(html)).toEqual(['abstract', 'Historia']);
    expect(parse(html).references.map((r) => r.identifier)).toEqual(['cite_note-1']);
  });

  it('keep a flat section whose run holds content, and one holding nothing', () => {
    const html = `<html lang="sw"><head><title>T</title></head><body><div id="mw-content-text"><div class="mw-parser-output"><p>Lead.</p><h2>Marejeo</h2><ol class="references"><li id="cite_note-1">Smith.</li></ol><p>A paragraph too.</p><h2>Tupu</h2><h2>Mwisho</h2><p>End.</p></div></div></body></html>`;
    expect(names(html)).toEqual(['abstract', 'Marejeo', 'Tupu', 'Mwisho']);
  });

  it('drop the titled appendices of the languages the issue found kept: zh, ar, cs', () => {
    expect(names(parsoidPage('zh', '<section data-mw-section-id="1"><h2>參考文獻</h2><p>《長城考》</p></section><section data-mw-section-id="2"><h2>外部链接</h2><p>x</p></section>'))).toEqual(['abstract']);
    expect(names(parsoidPage('ar', '<section data-mw-section-id="1"><h2>مراجع</h2><p>x</p></section><section data-mw-section-id="2"><h2>وصلات خارجية</h2><p>x</p></section>'))).toEqual(['abstract']);
    expect(names(parsoidPage('cs', '<section data-mw-section-id="1"><h2>Reference</h2><p>x</p></section>'))).toEqual(['abstract']);
  });
});

describe('grammar/sections.json boilerplate titles', () => {
  const lists = GRAMMAR.sections.boilerplate;

  it('say why for every language', () => {
    for (const [lang, { why, titles }] of Object.entries(lists)) {
      expect(why.length, `${lang}: why`).toBeGreaterThan(40);
      expect(titles.length, `${lang}: titles`).toBeGreaterThan(0);
      expect(new Set(titles.map(headingKey)).size, `${lang}: no title twice`).toBe(titles.length);
    }
  });

  it('are keyed by language codes MediaWiki knows (../shared/data/languages.json)', () => {
    const path = new URL('../../../shared/data/languages.json', import.meta.url);
    if (!existsSync(path)) return; // the shared data is beside the project in development and CI
    const known = (JSON.parse(readFileSync(path, 'utf8')) as { languages: Record<string, unknown> }).languages;
    for (const lang of Object.keys(lists)) if (lang !== '*' && lang !== 'simple') expect(known[lang], lang).toBeDefined();
  });

  it('cover the appendix titles of the wikitext corpus languages (each a title seen in its articles)', () => {
    const seen: Record<string, string> = {
      ja: '脚注', zh: '参考文献', ko: '각주', ru: 'примечания', uk: 'джерела', ar: 'مراجع', fa: 'پانویس', he: 'הערות שוליים', pl: 'przypisy',
      sv: 'referenser', tr: 'kaynakça', vi: 'tham khảo', el: 'παραπομπές', hy: 'ծանոթագրություններ', hi: 'सन्दर्भ', mr: 'बाह्य दुवे',
      bn: 'তথ্যসূত্র', th: 'อ้างอิง', kn: 'ಉಲ್ಲೇಖ', ur: 'حوالہ جات', ca: 'enllaços externs', gl: 'ligazóns externas', eo: 'eksteraj ligiloj', fo: 'slóðir',
    };
    for (const [lang, title] of Object.entries(seen)) expect(boilerplateTitles(lang).has(title), `${lang}: ${title}`).toBe(true);
  });

  it('give a language nobody listed its fallback chain\'s titles, never another language\'s', () => {
    // rue (Rusyn) falls back to uk, then ru (MediaWiki): ukwiki's appendix titles.
    expect(boilerplateTitles('rue').has('примітки')).toBe(true);
    // sw has no entry and falls back to English only: bg's "Литература" or ja's "参考文献" could be
    // a content heading there, so they are not borrowed.
    expect(boilerplateTitles('sw').has('references')).toBe(true);
    expect(boilerplateTitles('sw').has('литература')).toBe(false);
    expect(boilerplateTitles('sw').has('参考文献')).toBe(false);
    // A deprecated code reads as its current one (be-x-old → be-tarask → be).
    expect(boilerplateTitles('be-x-old').has('зноскі')).toBe(true);
  });

  it('give a page of unknown language every language\'s titles', () => {
    expect(boilerplateTitles(undefined).has('参考文献')).toBe(true);
  });
});
