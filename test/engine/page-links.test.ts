/**
 * The categories and templates read from Parsoid HTML (readPageLinks), against what production
 * lists: the corpus's Enterprise envelopes carry both the HTML and the API's own `categories` and
 * `templates`, so the HTML's reading is checked against the real thing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readPageLinks } from '../../src/index.js';
import { corpusDir } from '../../scripts/conformance/corpus.js';

/** The shared corpus's envelopes; absent on a machine without the corpus (the test then skips). */
const dir = corpusDir();
const CORPUS = dir === undefined ? undefined : join(dir, 'articles');

interface Envelope {
  article_body?: { html?: string };
  categories?: { name: string; url: string }[];
  templates?: { name: string; url: string }[];
}

describe('readPageLinks', () => {
  test('names and URLs as the Enterprise API writes them; sort keys, parser functions and repeats left out', () => {
    const html = `<!DOCTYPE html><html><head><base href="//de.wikipedia.org/wiki/"/></head><body>
      <p typeof="mw:Transclusion" data-mw='{"parts":[{"template":{"target":{"wt":"Infobox Person\\n","href":"./Vorlage:Infobox_Person"},"params":{}}}," and ",{"template":{"target":{"wt":"#if:x","function":"if"},"params":{}}}]}'>x</p>
      <span typeof="mw:Transclusion mw:Other" data-mw='{"parts":[{"template":{"target":{"wt":"Lang","href":"./Vorlage:Lang"}}}]}'>y</span>
      <span data-mw='{"parts":[{"template":{"target":{"href":"./Vorlage:Not_a_transclusion"}}}]}'>no typeof</span>
      <span typeof="mw:Transclusion" data-mw='not json'>z</span>
      <link rel="mw:PageProp/Category" href="./Kategorie:Physiker_(20._Jahrhundert)#Einstein, Albert"/>
      <link rel="mw:PageProp/Category" href="./Kategorie:Ausw%C3%A4rtiges_Mitglied"/>
      <link rel="mw:PageProp/Category" href="./Kategorie:Physiker_(20._Jahrhundert)"/>
      <link rel="mw:PageProp/redirect" href="./Elsewhere"/>
      <p typeof="mw:Transclusion" data-mw='{"parts":[{"template":{"target":{"wt":"lang","href":"./Vorlage:Lang"}}}]}'>again</p>
    </body></html>`;
    expect(readPageLinks(html)).toEqual({
      categories: [
        { name: 'Kategorie:Physiker (20. Jahrhundert)', url: 'https://de.wikipedia.org/wiki/Kategorie:Physiker_(20._Jahrhundert)' },
        { name: 'Kategorie:Auswärtiges Mitglied', url: 'https://de.wikipedia.org/wiki/Kategorie:Auswärtiges_Mitglied' },
      ],
      templates: [
        { name: 'Vorlage:Infobox Person', url: 'https://de.wikipedia.org/wiki/Vorlage:Infobox_Person' },
        { name: 'Vorlage:Lang', url: 'https://de.wikipedia.org/wiki/Vorlage:Lang' },
      ],
    });
  });

  test('a page without <base href>: URLs from the given article path, or none', () => {
    const body = '<link rel="mw:PageProp/Category" href="./Category:Rock_music"/>';
    expect(readPageLinks(body, { base: 'https://en.wikipedia.org/wiki/' }).categories).toEqual([{ name: 'Category:Rock music', url: 'https://en.wikipedia.org/wiki/Category:Rock_music' }]);
    expect(readPageLinks(body).categories).toEqual([{ name: 'Category:Rock music' }]);
  });

  test('a page nested 200,000 deep is read as any other (no open-element stack to search)', () => {
    const depth = 200_000;
    const html = `${'<span>'.repeat(depth)}<link rel="mw:PageProp/Category" href="./Category:Deep"/>${'</span>'.repeat(depth)}`;
    expect(readPageLinks(html).categories).toEqual([{ name: 'Category:Deep' }]);
  });

  test.skipIf(CORPUS === undefined)('on the corpus: every category the Enterprise API lists, with its URL; the templates written on the page', () => {
    let listed = 0;
    let found = 0;
    let templatesFound = 0;
    for (const file of readdirSync(CORPUS!).filter((f) => f.endsWith('.json'))) {
      const envelope = JSON.parse(readFileSync(join(CORPUS!, file), 'utf8')) as Envelope;
      if (envelope.article_body?.html === undefined || envelope.categories === undefined) continue;
      const read = readPageLinks(envelope.article_body.html);
      const categories = new Map(read.categories.map((c) => [c.name, c.url]));
      for (const category of envelope.categories) {
        listed += 1;
        expect(categories.get(category.name), `${file}: ${category.name}`).toBe(category.url);
        found += 1;
      }
      // The API lists every template the page uses, called from other templates too; the HTML
      // records only the calls on the page, so those are a part of the API's list.
      const templates = new Map((envelope.templates ?? []).map((t) => [t.name, t.url]));
      for (const template of read.templates) if (templates.get(template.name) === template.url) templatesFound += 1;
    }
    expect(listed, 'the corpus has categories to compare').toBeGreaterThan(500);
    expect(found).toBe(listed);
    expect(templatesFound, 'templates named and linked as the API does').toBeGreaterThan(400);
  });
});
