import { describe, expect, it } from 'vitest';
import { readCoins } from '../../src/engine/references.js';
import { citationType } from '../../src/engine/grammar.js';
import { parse } from '../../src/index.js';

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
    expect(metadata).toEqual({ title: 'On Things', journal: 'Nature', author: 'A One', author2: 'B Two', date: '2001', doi: '10.1/x' });
  });

  it('survives malformed escapes', () => {
    expect(readCoins('rft.btitle=%E0%A4%A&rft.date=2').metadata).toEqual({ title: '%E0%A4%A', date: '2' });
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
    expect(a.references).toEqual([{ identifier: 'cite_note-1', type: 'text', metadata: {}, text: { value: 'Source text.' } }]);
    expect(a.sections[0]!.has_parts![0]).toEqual({ type: 'paragraph', value: 'Claim.', citations: [{ identifier: 'cite_note-1', text: '[1]' }] });
    expect(a.sections.map((s) => s.name), 'the boilerplate section is dropped, the next one kept').toEqual(['abstract', 'Later']);
  });
});
