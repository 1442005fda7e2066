import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCoins } from '../../src/engine/coins.js';
import { citationType } from '../../src/engine/grammar.js';
import { parse, parseWikitext } from '../../src/index.js';

describe('citation types', () => {
  it('maps the common templates, wiki-language variants and unknown cite-prefixed ones', () => {
    expect(citationType('Cite book')).toBe('book');
    expect(citationType('cite_web')).toBe('web');
    expect(citationType('Template:Cite news')).toBe('news');
    expect(citationType('Cite journal')).toBe('journal');
    expect(citationType('Lien web'), 'frwiki').toBe('web');
    expect(citationType('Internetquelle'), 'dewiki').toBe('web');
    expect(citationType('Cite podcast'), 'unknown cite … template').toBe('podcast');
    expect(citationType('Infobox person'), 'not a citation').toBeUndefined();
  });
});

describe('COinS fallback', () => {
  it('reads OpenURL key-value pairs into template parameter names', () => {
    const { type, metadata } = readCoins(
      'ctx_ver=Z39.88-2004&rft_val_fmt=info%3Aofi%2Ffmt%3Akev%3Amtx%3Ajournal&rft.atitle=On+Things&rft.jtitle=Nature&rft.au=A+One&rft.au=B+Two&rft.date=2001&rft_id=info%3Adoi%2F10.1%2Fx',
    );
    expect(type).toBe('journal');
    expect(metadata).toEqual({ title: 'On Things', work: 'Nature', author: 'A One', author2: 'B Two', date: '2001', doi: '10.1/x' });
  });

  it('survives malformed escapes: a broken UTF-8 sequence is one U+FFFD, a bad escape stays literal', () => {
    expect(readCoins('rft.btitle=%E0%A4%A&rft.date=2').metadata).toEqual({ title: '\uFFFD%A', date: '2' });
  });
});

describe('references in rendered (skin) pages', () => {
  it('reads ol.references under a boilerplate heading and links sup.reference markers to them', () => {
    const html = `<html><head><title>X</title><link rel="canonical" href="https://en.wikipedia.org/wiki/X"/></head><body><div class="mw-parser-output">
      <p>Claim.<sup id="cite_ref-1" class="reference"><a href="#cite_note-1">[1]</a></sup></p>
      <div class="mw-heading mw-heading2"><h2 id="References">References</h2></div>
      <div class="reflist"><ol class="references"><li id="cite_note-1"><span class="mw-cite-backlink"><b><a href="#cite_ref-1">^</a></b></span> <span class="reference-text">Source text.</span></li></ol></div>
      <div class="mw-heading mw-heading2"><h2 id="Later">Later</h2></div><p>After.</p>
    </div></body></html>`;
    const a = parse(html);
    expect(a.references).toEqual([{ identifier: 'cite_note-1', group: null, type: 'text', metadata: {}, text: { value: 'Source text.' } }]);
    expect(a.sections[0]!.has_parts![0]).toEqual({ type: 'paragraph', value: 'Claim.', citations: [{ identifier: 'cite_note-1', text: '[1]' }] });
    expect(a.sections.map((s) => s.name), 'the boilerplate section is dropped, the next one kept').toEqual(['abstract', 'Later']);
  });
});

const page = (body: string): string =>
  `<html><head><base href="//en.wikipedia.org/wiki/"/><title>R</title></head><body><section data-mw-section-id="0">${body}</section></body></html>`;
const marker = (id: string, text = '[1]'): string => `<sup typeof="mw:Extension/ref" class="mw-ref reference"><a href="./R#${id}">${text}</a></sup>`;
const entry = (id: string, html: string): string => `<li id="${id}"><span class="mw-reference-text">${html}</span></li>`;

describe('the production reply shape of a Reference (issue #15)', () => {
  it('group is always present: the list group, or null for the default group', () => {
    const a = parse(
      page(
        `<p>A.${marker('cite_note-1')} B.${marker('cite_note-2', '[note 1]')}</p>` +
          `<ol class="mw-references references">${entry('cite_note-1', 'Plain.')}</ol>` +
          `<ol class="mw-references references" data-mw-group="note">${entry('cite_note-2', 'A note.')}</ol>`,
      ),
    );
    expect(a.references.map((r) => [r.identifier, r.group])).toEqual([['cite_note-1', null], ['cite_note-2', 'note']]);
  });

  it('a note citing a reference names it as parent_reference; a note citing only itself does not', () => {
    const a = parse(
      page(
        `<p>A.${marker('cite_note-2', '[a]')}</p>` +
          `<ol class="mw-references references" data-mw-group="lower-alpha">${entry('cite_note-2', `See Smith.${marker('cite_note-1')}`)}${entry('cite_note-3', `Loop.${marker('cite_note-3')}`)}</ol>` +
          `<ol class="mw-references references">${entry('cite_note-1', 'Smith 2001.')}</ol>`,
      ),
    );
    expect(a.references.find((r) => r.identifier === 'cite_note-2')!.parent_reference).toBe('cite_note-1');
    expect(a.references.find((r) => r.identifier === 'cite_note-3')).not.toHaveProperty('parent_reference');
    expect(a.references.find((r) => r.identifier === 'cite_note-1')).not.toHaveProperty('parent_reference');
  });

  it('a short footnote takes the full citation its #CITEREF link points at as source; a dangling anchor gives none', () => {
    const a = parse(
      page(
        `<p>A.${marker('cite_note-F1')} B.${marker('cite_note-F2', '[2]')}</p>` +
          `<ol class="mw-references references">${entry('cite_note-F1', '<a rel="mw:WikiLink" href="./R#CITEREFSmith2001">Smith (2001)</a>, p. 5.')}${entry('cite_note-F2', '<a rel="mw:WikiLink" href="./R#CITEREFNobody1999">Nobody (1999)</a>.')}</ol>` +
          `<ul><li><cite id="CITEREFSmith2001" class="citation book cs1"><a rel="mw:WikiLink" href="./John_Smith">Smith, John</a> (2001). <i>A Book</i>.</cite></li></ul>`,
      ),
    );
    expect(a.references[0]!.source).toEqual({ value: 'Smith, John (2001). A Book.', links: [{ url: 'https://en.wikipedia.org/wiki/John_Smith', text: 'Smith, John' }] });
    expect(a.references[1]).not.toHaveProperty('source');
  });

  it('footnotes citing the same full citation each get it as source, each with a list of links of its own', () => {
    const sfn = (page: number) => `<a rel="mw:WikiLink" href="./R#CITEREFSmith2001">Smith (2001)</a>, p. ${page}.`;
    const a = parse(
      page(
        `<p>A.${marker('cite_note-F1')} B.${marker('cite_note-F2', '[2]')}</p>` +
          `<ol class="mw-references references">${entry('cite_note-F1', sfn(5))}${entry('cite_note-F2', sfn(9))}</ol>` +
          `<ul><li><cite id="CITEREFSmith2001" class="citation book cs1"><a rel="mw:WikiLink" href="./John_Smith">Smith, John</a> (2001). <i>A Book</i>.</cite></li></ul>`,
      ),
    );
    const source = { value: 'Smith, John (2001). A Book.', links: [{ url: 'https://en.wikipedia.org/wiki/John_Smith', text: 'Smith, John' }] };
    expect(a.references.map((r) => r.source)).toEqual([source, source]);
    expect(a.references[0]!.source!.links).not.toBe(a.references[1]!.source!.links);
  });
});

describe('the wikitext front door gives the same shape', () => {
  const wt = (text: string) => parseWikitext(text, { name: 'R', project: 'enwiki', revision: 1 });

  it('an {{efn}} citing a <ref> has it as parent_reference; every reference has a group', () => {
    const a = wt('Text.{{efn|A note citing Smith.<ref>Smith 2001.</ref>}} More.<ref>Jones 2002.</ref>\n\n== Notes ==\n{{notelist}}\n{{reflist}}\n');
    expect(a.references.map((r) => [r.identifier, r.group, r.parent_reference])).toEqual([
      ['cite_note-1', 'lower-alpha', 'cite_note-2'],
      ['cite_note-2', null, undefined],
      ['cite_note-3', null, undefined],
    ]);
  });

  it('{{coord}} reads as degrees-minutes-seconds, as on the HTML front door; display=title alone shows nothing', () => {
    expect(wt('Bern ({{coord|46|57|N|7|27|E}}).').abstract).toBe('Bern (46°57′N 7°27′E).');
    expect(wt('Bern ({{coord|46|57|12|N|7|27|5|E|display=inline,title}}).').abstract).toBe('Bern (46°57′12″N 7°27′5″E).');
    expect(wt('Bern ({{coord|46.95|-7.45}}).').abstract).toBe('Bern (46°57′N 7°27′W).');
    expect(wt('Bern.{{coord|46|57|N|7|27|E|display=title}}').abstract).toBe('Bern.');
    expect(wt('Bern {{coord|north|pole}}.').abstract, 'malformed: nothing, not raw parameters').toBe('Bern.');
  });

  it('decimal {{coord}} keeps its hemisphere and precision (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -900_000, max: 900_000 }), fc.integer({ min: -1_800_000, max: 1_800_000 }), (lat, lon) => {
        const text = wt(`X {{coord|${(lat / 10_000).toFixed(4)}|${(lon / 10_000).toFixed(4)}}} Y`).abstract!;
        const m = /^X (\d+)°(\d+)′(\d+)″([NS]) (\d+)°(\d+)′(\d+)″([EW]) Y$/.exec(text);
        expect(m, text).not.toBeNull();
        expect(m![4]).toBe(lat < 0 ? 'S' : 'N');
        expect(m![8]).toBe(lon < 0 ? 'W' : 'E');
        expect(Math.abs(Number(m![1]) + Number(m![2]) / 60 + Number(m![3]) / 3600 - Math.abs(lat / 10_000))).toBeLessThan(1 / 3600);
        expect(Number(m![2])).toBeLessThan(60);
        expect(Number(m![3])).toBeLessThan(60);
      }),
      { numRuns: 200 },
    );
  });
});
