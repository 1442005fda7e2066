/** What a page says about itself (src/engine/metadata.ts): the name of a skin page saved without its config script. */
import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/engine/dom.js';
import { readDocumentMeta } from '../../src/engine/metadata.js';

const skin = (head: string, body: string): string =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"/>${head}</head><body class="skin-vector">${body}<div id="mw-content-text"><div class="mw-parser-output"><p>Text.</p></div></div></body></html>`;
const nameOf = (html: string): string | undefined => readDocumentMeta(parseHtml(html)).name;
const heading = '<h1 id="firstHeading" class="firstHeading mw-first-heading"><span class="mw-page-title-namespace">Template</span><span class="mw-page-title-separator">:</span><span class="mw-page-title-main">Infobox  river</span></h1>';

describe('the name of a skin page without RLCONF', () => {
  it('is its first heading, namespace included, spaces collapsed', () => {
    expect(nameOf(skin('<title>Template:Infobox river - Wikipedia</title>', heading))).toBe('Template:Infobox river');
  });

  it('else its <title> without the site name after the last separator, whatever the dash', () => {
    expect(nameOf(skin('<title>China - Simple English Wikipedia, the free encyclopedia</title>', ''))).toBe('China');
    expect(nameOf(skin('<title>François Lapous — Wikipédia</title>', ''))).toBe('François Lapous');
    expect(nameOf(skin('<title>Mercedes-Benz W 201 – Wikipedia</title>', '')), 'a hyphen inside the title stays').toBe('Mercedes-Benz W 201');
  });

  it('comes after RLCONF and the canonical link, which name the page itself', () => {
    const rlconf = '<script>RLCONF={"wgTitle":"Real title","wgCanonicalNamespace":""};</script>';
    expect(nameOf(skin(`<title>Shown - Wikipedia</title>${rlconf}`, heading))).toBe('Real title');
    expect(nameOf(skin('<title>Shown - Wikipedia</title><link rel="canonical" href="https://en.wikipedia.org/wiki/Canonical_title"/>', heading))).toBe('Canonical title');
  });
});
