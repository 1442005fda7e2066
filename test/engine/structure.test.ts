/** Section tree (sections.ts), lists, figures and metadata on inputs the fixtures do not cover. */
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index.js';

describe('section tree', () => {
  it('nests flat headings of rendered pages by level and skips levels gracefully', () => {
    const a = parse('<div class="mw-parser-output"><p>Lead.</p><h2>A</h2><h4>A.1 deep</h4><p>x</p><h3>A.2</h3><h2>B</h2><p>y</p></div>');
    expect(a.sections.map((s) => s.name)).toEqual(['abstract', 'A', 'B']);
    expect(a.sections[1]!.has_parts!.map((p) => p.name)).toEqual(['A.1 deep', 'A.2']);
  });

  it('drops a boilerplate section of a flat page with its subsections, up to the next heading of its level', () => {
    const a = parse('<div class="mw-parser-output"><p>Lead.</p><h2>See also</h2><h3>Sub</h3><p>gone</p><h2>Kept</h2><p>here</p></div>');
    expect(a.sections.map((s) => s.name)).toEqual(['abstract', 'Kept']);
    expect(JSON.stringify(a)).not.toContain('gone');
  });

  it('always starts with the lead named "abstract", even when the page opens with a heading', () => {
    const a = parse('<body><section data-mw-section-id="1"><h2>First</h2><p>x</p></section></body>');
    expect(a.sections[0]).toEqual({ name: 'abstract', type: 'section' });
    expect(a.sections[1]!.name).toBe('First');
  });

  it('reads content of layout wrappers (div, center, blockquote) in document order', () => {
    const a = parse('<body><div><p>one</p><center><p>two</p></center></div><blockquote><p>three</p></blockquote></body>');
    expect(a.sections[0]!.has_parts!.map((p) => p.value)).toEqual(['one', 'two', 'three']);
  });
});

describe('metadata', () => {
  it('omits what the document does not carry instead of inventing it', () => {
    const a = parse('<p>Only text.</p>');
    expect(Object.keys(a).sort()).toEqual(['abstract', 'infoboxes', 'references', 'sections', 'tables']);
  });

  it('names the page after its URL, not its display title, which may carry markup', () => {
    const head = '<meta property="mw:htmlVersion" content="2.8.0"/><title>&lt;i>Monday Night Football&lt;/i></title>';
    const withUrl = parse(`<html><head>${head}<link rel="dc:isVersionOf" href="//en.wikipedia.org/wiki/Monday_Night_Football"/></head><body><p>x</p></body></html>`);
    expect(withUrl.name).toBe('Monday Night Football');
    const displayOnly = parse(`<html><head>${head}</head><body><p>x</p></body></html>`);
    expect(displayOnly.name, 'without a URL, the display title without its tags').toBe('Monday Night Football');
  });

  it('takes the envelope over the document, and the document where the envelope is silent', () => {
    const html = '<html about="https://en.wikipedia.org/wiki/Special:Redirect/revision/9"><head><meta property="mw:pageId" content="5"/><base href="//en.wikipedia.org/wiki/"/><title>Doc</title><meta property="mw:htmlVersion" content="2.8.0"/></head><body><p>x</p></body></html>';
    const a = parse({ name: 'Envelope name', article_body: { html } });
    expect(a.name, 'envelope wins').toBe('Envelope name');
    expect(a.identifier, 'document fills in').toBe(5);
    expect(a.version).toEqual({ identifier: 9 });
    expect(a.is_part_of).toEqual({ identifier: 'enwiki', url: 'https://en.wikipedia.org' });
  });
});
