/**
 * The explorer's renderers (src/explorer/render): Article → HTML strings, checked by parsing
 * what they write with htmlparser2. Escaping is a property over arbitrary text; links land on
 * their anchor text; every citation marker jumps to a reference the page holds; sections,
 * infoboxes, tables and references come out with the structure the page relies on.
 */
import { readFileSync } from 'node:fs';
import { findAll, findOne, getAttributeValue, textContent } from 'domutils';
import type { Element } from 'domhandler';
import fc from 'fast-check';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/engine/parse.js';
import { anchorId, esc, safeUrl } from '../../src/explorer/html.js';
import { confidenceBadge, confidenceLevel } from '../../src/explorer/render/badge.js';
import { renderHeader } from '../../src/explorer/render/header.js';
import { renderInfoboxes } from '../../src/explorer/render/infobox.js';
import { citationMarkers, linkify } from '../../src/explorer/render/inline.js';
import { forArticle, MAIN_VIEW, SOURCE_PANE } from '../../src/explorer/render/options.js';
import { GRAMMAR } from '../../src/engine/grammar/load.js';
import { wikiHostPatterns } from '../../src/service/explorer/image-hosts.js';
import { renderOutline } from '../../src/explorer/render/outline.js';
import { renderReferences } from '../../src/explorer/render/references.js';
import { renderCell, renderTableGrid, renderTableList, tableSize } from '../../src/explorer/render/tables.js';
import type { Article, Part, Table } from '../../src/schema/article.js';

const dom = (html: string) => parseDocument(html, { decodeEntities: true });
const elements = (html: string, test: (el: Element) => boolean = () => true): Element[] => findAll(test, dom(html).children);
const byName = (html: string, name: string): Element[] => elements(html, (el) => el.name === name);

const FIXTURE = (name: string): string => readFileSync(new URL(`../../corpus/${name}/input.html`, import.meta.url), 'utf8');

describe('escaping and URLs', () => {
  it('any text, escaped, reads back as itself and makes no element', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const html = `<p>${esc(text)}</p>`;
        expect(byName(html, 'p'), 'one element').toHaveLength(1);
        expect(elements(html), 'nothing else').toHaveLength(1);
        expect(textContent(dom(html)), 'the text itself').toBe(text);
        const attr = dom(`<b title="${esc(text)}"></b>`);
        expect(getAttributeValue(findOne((el) => el.name === 'b', attr.children)!, 'title'), 'as an attribute too').toBe(text);
      }),
    );
  });

  it('only absolute http(s) URLs are links or images; protocol-relative ones become https', () => {
    expect(safeUrl('https://en.wikipedia.org/wiki/X')).toBe('https://en.wikipedia.org/wiki/X');
    expect(safeUrl('//upload.wikimedia.org/a.jpg')).toBe('https://upload.wikimedia.org/a.jpg');
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,x', './Paris', '/wiki/X', 'https://', ' https://x']) {
      expect(safeUrl(bad), bad).toBeUndefined();
    }
  });

  it('anchor ids are distinct for distinct identifiers and safe in an id and a fragment', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const idA = anchorId('ref', a);
        expect(idA, 'only safe characters').toMatch(/^ref-[A-Za-z0-9_.:~-]*$/);
        if (a !== b) expect(idA, 'injective').not.toBe(anchorId('ref', b));
      }),
    );
  });
});

describe('links and citations', () => {
  it('a link lands on its anchor text, in order; text without a match stays text', () => {
    const html = linkify('Paris is in France; Paris again.', [
      { url: 'https://en.wikipedia.org/wiki/Paris', text: 'Paris' },
      { url: 'https://en.wikipedia.org/wiki/France', text: 'France' },
      { url: 'https://en.wikipedia.org/wiki/Nowhere', text: 'Nowhere' },
      { url: 'javascript:alert(1)', text: 'again' },
    ]);
    const anchors = byName(html, 'a');
    expect(anchors.map((a) => [textContent(a), getAttributeValue(a, 'href')]), 'two links, first occurrences, unsafe one dropped').toEqual([
      ['Paris', 'https://en.wikipedia.org/wiki/Paris'],
      ['France', 'https://en.wikipedia.org/wiki/France'],
    ]);
    expect(getAttributeValue(anchors[0]!, 'rel'), 'no opener, no referrer').toBe('noopener noreferrer');
    expect(textContent(dom(html)), 'the text is unchanged').toBe('Paris is in France; Paris again.');
  });

  it('whatever the text and links, linkify keeps the text and makes only links', () => {
    const link = fc.record({ url: fc.constantFrom('https://x.org/a', 'javascript:x', '//y.org/b'), text: fc.option(fc.string({ maxLength: 6 }), { nil: undefined }) });
    fc.assert(
      fc.property(fc.string(), fc.array(link, { maxLength: 6 }), (value, links) => {
        const html = linkify(value, links.map((l) => (l.text === undefined ? { url: l.url } : { url: l.url, text: l.text })));
        expect(textContent(dom(html)), 'text unchanged').toBe(value);
        expect(elements(html).every((el) => el.name === 'a' && /^https:\/\//.test(getAttributeValue(el, 'href') ?? '')), 'only https links').toBe(true);
      }),
    );
  });

  it('citation markers link to the reference anchors in the main view and are plain in the side pane', () => {
    const citations = [{ identifier: 'cite_note-a b"1', text: '[1]' }, { identifier: 'cite_note-2', text: '' }];
    const main = citationMarkers(citations, MAIN_VIEW);
    expect(byName(main, 'a').map((a) => getAttributeValue(a, 'href')), 'hrefs').toEqual([`#${anchorId('ref', 'cite_note-a b"1')}`, `#${anchorId('ref', 'cite_note-2')}`]);
    expect(byName(main, 'a').map((a) => textContent(a)), 'an empty marker is still clickable').toEqual(['[1]', '[?]']);
    expect(byName(citationMarkers(citations, SOURCE_PANE), 'a'), 'no links in the side pane').toHaveLength(0);
    expect(citationMarkers(undefined, MAIN_VIEW), 'none: nothing').toBe('');
  });

  it('every citation marker of a real page jumps to a reference the page renders', () => {
    const article = parse(FIXTURE('references'));
    const page = renderOutline(article.sections, MAIN_VIEW) + renderInfoboxes(article.infoboxes, MAIN_VIEW) + renderReferences(article.references, MAIN_VIEW);
    const ids = new Set(elements(page).map((el) => getAttributeValue(el, 'id')).filter((id) => id !== undefined));
    const targets = elements(page, (el) => el.name === 'a' && (getAttributeValue(el, 'href') ?? '').startsWith('#')).map((a) => getAttributeValue(a, 'href')!.slice(1));
    expect(targets.length, 'the fixture has citations').toBeGreaterThan(0);
    expect(targets.filter((t) => !ids.has(t)), 'every target exists').toEqual([]);
    expect(ids.size, 'ids are unique').toBe(elements(page, (el) => getAttributeValue(el, 'id') !== undefined).length);
  });
});

const part = (p: Part): Part => p;
/** The wiki hosts the server hands the page. */
const WIKI_HOSTS = wikiHostPatterns(GRAMMAR.projects);

describe('the outline', () => {
  const sections: Part[] = [
    { name: 'abstract', type: 'section', has_parts: [part({ type: 'paragraph', value: 'Lead text.' })] },
    {
      name: 'History',
      type: 'section',
      has_parts: [
        part({ type: 'paragraph', value: 'A <b>tag</b> in text.', citations: [{ identifier: 'n1', text: '[1]' }] }),
        part({ type: 'list', has_parts: [{ type: 'list_item', value: 'one', has_parts: [{ type: 'list', has_parts: [{ type: 'list_item', value: 'nested' }] }] }, { type: 'list_item', value: 'two' }] }),
        part({ type: 'image', value: 'A caption', images: [{ content_url: 'https://upload.wikimedia.org/a.jpg', width: 100, height: 80 }] }),
        part({ type: 'image', value: 'Unsafe', images: [{ content_url: 'javascript:alert(1)' }] }),
        part({ type: 'table', value: 'Results', table_references: [{ identifier: 'table-1', confidence_score: 0.42 }] }),
        { name: 'Early years', type: 'section', has_parts: [part({ type: 'paragraph', value: 'Nested.' })] },
      ],
    },
  ];

  it('a collapsible section per section, the lead open, subsections nested, counts shown', () => {
    const html = renderOutline(sections, MAIN_VIEW);
    const details = byName(html, 'details');
    expect(details.map((d) => textContent(findOne((el) => el.name === 'summary', d.children)!)), 'summaries').toEqual([
      'Lead 1 block',
      'History 5 blocks, 1 subsection',
      'Early years 1 block',
    ]);
    expect(details.map((d) => getAttributeValue(d, 'open') !== undefined), 'only the lead open').toEqual([true, false, false]);
    expect(findAll((el) => el.name === 'details', details[1]!.children), 'Early years inside History').toHaveLength(1);
  });

  it('paragraph text is escaped, lists nest, images are lazy thumbnails with their caption, table parts link to their table with a badge', () => {
    const html = renderOutline(sections, forArticle(MAIN_VIEW, { url: 'https://en.wikipedia.org/wiki/Example' }, WIKI_HOSTS));
    expect(byName(html, 'b'), 'markup in a value is text').toHaveLength(0);
    expect(html).toContain('A &lt;b&gt;tag&lt;/b&gt; in text.');
    expect(byName(html, 'ul').length, 'a list and its nested list').toBe(2);
    const imgs = byName(html, 'img');
    expect(imgs.map((i) => [getAttributeValue(i, 'src'), getAttributeValue(i, 'loading'), getAttributeValue(i, 'alt')]), 'one safe image').toEqual([
      ['https://upload.wikimedia.org/a.jpg', 'lazy', 'A caption'],
    ]);
    expect(byName(html, 'figcaption').map((f) => textContent(f)), 'captions, the unsafe image kept as caption').toEqual(['A caption', 'Unsafe']);
    const tableLink = elements(html, (el) => el.name === 'a' && getAttributeValue(el, 'class') === 'table-link')[0]!;
    expect(getAttributeValue(tableLink, 'href'), 'to the table').toBe(`#${anchorId('table', 'table-1')}`);
    expect(html, 'badge with the score').toContain('confidence 0.42');
  });

  it('images load inline only from the article’s own wiki hosts; any other is a link, never an <img> (issue 22)', () => {
    const image = (url: string) => part({ type: 'image', value: url, images: [{ content_url: url }] });
    const pictures = [
      { name: 'abstract', type: 'section' as const, has_parts: [
        image('https://upload.wikimedia.org/wikipedia/commons/a/a1/A.jpg'),
        image('//fr.wikipedia.org/w/thumb.php?f=B.jpg'),
        image('https://evil.example/pixel'),
        image('https://en.wikipedia.org.evil.example/pixel'),
        image('https://en.wikipedia.org/w/thumb.php?f=C.jpg'),
        image('http://upload.wikimedia.org/insecure.jpg'),
        image('https://upload.wikimedia.org:8443/port.jpg'),
      ] },
    ];
    const loaded = (articleUrl: string | undefined) =>
      byName(renderOutline(pictures, forArticle(MAIN_VIEW, articleUrl === undefined ? {} : { url: articleUrl }, WIKI_HOSTS)), 'img').map((i) => getAttributeValue(i, 'src'));
    expect(loaded('https://fr.wikipedia.org/wiki/Exemple'), 'a frwiki article: the file host and frwiki').toEqual([
      'https://upload.wikimedia.org/wikipedia/commons/a/a1/A.jpg',
      'https://fr.wikipedia.org/w/thumb.php?f=B.jpg',
    ]);
    expect(loaded('https://en.wikipedia.org/wiki/Example'), 'an enwiki article: the file host and enwiki').toEqual([
      'https://upload.wikimedia.org/wikipedia/commons/a/a1/A.jpg',
      'https://en.wikipedia.org/w/thumb.php?f=C.jpg',
    ]);
    expect(loaded('https://wiki.evil.example/wiki/Page'), 'an article of an unknown wiki: nothing inline').toEqual([]);
    expect(loaded(undefined), 'an article without a URL: nothing inline').toEqual([]);
    const links = elements(renderOutline(pictures, forArticle(MAIN_VIEW, { url: 'https://en.wikipedia.org/wiki/Example' }, WIKI_HOSTS)), (el) => getAttributeValue(el, 'class') === 'remote-image');
    expect(links.map((a) => [a.name, getAttributeValue(a, 'href'), getAttributeValue(a, 'rel'), textContent(a)]), 'the others are links the reader may follow').toEqual([
      ['a', 'https://fr.wikipedia.org/w/thumb.php?f=B.jpg', 'noopener noreferrer', '[image from fr.wikipedia.org: open]'],
      ['a', 'https://evil.example/pixel', 'noopener noreferrer', '[image from evil.example: open]'],
      ['a', 'https://en.wikipedia.org.evil.example/pixel', 'noopener noreferrer', '[image from en.wikipedia.org.evil.example: open]'],
      ['a', 'http://upload.wikimedia.org/insecure.jpg', 'noopener noreferrer', '[image from another site: open]'],
      ['a', 'https://upload.wikimedia.org:8443/port.jpg', 'noopener noreferrer', '[image from another site: open]'],
    ]);
    expect(byName(renderOutline(pictures, MAIN_VIEW), 'img'), 'a view with no article hosts loads none').toEqual([]);
  });

  it('source hints become data-src on the side pane only, on the section summary and on blocks', () => {
    const hinted: Part[] = [
      { name: 'abstract', type: 'section', has_parts: [{ type: 'paragraph', value: 'x', source: { element: 4, tag: 'p' } } as Part] },
      { name: 'S', type: 'section', source: { element: 9, tag: 'h2' }, has_parts: [] } as Part,
    ];
    expect(renderOutline(hinted, MAIN_VIEW), 'none in the main view').not.toContain('data-src');
    const pane = renderOutline(hinted, SOURCE_PANE);
    const marked = elements(pane, (el) => getAttributeValue(el, 'data-src') !== undefined);
    expect(marked.map((el) => [el.name, getAttributeValue(el, 'data-src'), getAttributeValue(el, 'tabindex')]), 'summary and paragraph').toEqual([
      ['p', '4', '0'],
      ['summary', '9', undefined],
    ]);
    expect(pane, 'no ids in the side pane').not.toMatch(/\sid="/);
  });
});

describe('infoboxes, tables, references and the header', () => {
  it('an infobox is a captioned label/value grid with its section rows and list items', () => {
    const html = renderInfoboxes(parse(FIXTURE('infobox')).infoboxes, MAIN_VIEW);
    const table = byName(html, 'table')[0]!;
    expect(textContent(findOne((el) => el.name === 'caption', table.children)!).length, 'captioned with the template').toBeGreaterThan(0);
    const rowHeaders = findAll((el) => el.name === 'th' && getAttributeValue(el, 'scope') === 'row', table.children);
    expect(rowHeaders.length, 'one row header per field').toBeGreaterThan(2);
    expect(renderInfoboxes([], MAIN_VIEW)).toContain('No infoboxes');
  });

  const table: Table = {
    identifier: 'table-1',
    headers: [[{ value: 'Year' }, { value: 'Title <i>' }]],
    rows: [[{ value: '2001' }, { value: 'A' }], [{ value: '2002' }, { value: 'B' }]],
    confidence_score: 0.93,
  };

  it('a table is an entry with id, size and badge; its grid has column headers in thead, rows in tbody', () => {
    const entry = renderTableList([table], MAIN_VIEW);
    const details = byName(entry, 'details')[0]!;
    expect(getAttributeValue(details, 'id'), 'the anchor table parts link to').toBe(anchorId('table', 'table-1'));
    expect(textContent(details)).toContain('2 rows × 2 columns, 1 header row');
    expect(textContent(details)).toContain('confidence 0.93');
    const grid = renderTableGrid(table);
    expect(byName(grid, 'thead').flatMap((h) => findAll((el) => el.name === 'th', h.children)).map((th) => [textContent(th), getAttributeValue(th, 'scope')])).toEqual([
      ['Year', 'col'],
      ['Title <i>', 'col'],
    ]);
    expect(byName(grid, 'tbody')[0]!.children.length, 'two body rows').toBe(2);
    expect(byName(renderTableGrid({ ...table, headers: [] }), 'thead'), 'no header rows: no thead').toHaveLength(0);
    expect(tableSize({ ...table, rows: [[{ value: 'x' }]], headers: [] })).toBe('1 row × 1 column, no header row');
  });

  const rich: Table = {
    identifier: 'results_table1',
    headers: [[{ value: 'Party' }, { value: 'Votes' }]],
    rows: [
      [{ value: 'Green Party', links: [{ url: 'https://en.wikipedia.org/wiki/Green_Party', text: 'Green' }] }, { value: '120', citations: [{ identifier: 'cite_note-3', text: '[3]' }] }],
      [{ value: 'Detail', nested_table: 'results_table1.inner <1>' }, { value: '', nested_table: 'results_table2' }],
    ],
    footers: [[{ value: 'Total' }, { value: '220', citations: [{ identifier: 'cite_note-9', text: '[9]' }] }]],
    confidence_score: 0.9,
  };

  it('footer rows are a tfoot after the body, and the size counts them', () => {
    const grid = renderTableGrid(rich, MAIN_VIEW);
    const table = byName(grid, 'table')[0]!;
    expect(table.children.filter((c): c is Element => c.type === 'tag').map((c) => c.name), 'caption, head, body, foot in order').toEqual(['caption', 'thead', 'tbody', 'tfoot']);
    const foot = byName(grid, 'tfoot')[0]!;
    expect(findAll((el) => el.name === 'td', foot.children).map((td) => textContent(td)), 'the totals row').toEqual(['Total', '220[9]']);
    expect(byName(grid, 'tbody')[0]!.children.length, 'footers are not body rows').toBe(2);
    expect(byName(renderTableGrid(withoutFooters(rich), MAIN_VIEW), 'tfoot'), 'no footers: no tfoot').toHaveLength(0);
    expect(byName(renderTableGrid({ ...rich, footers: [] }, MAIN_VIEW), 'tfoot'), 'empty footers: no tfoot').toHaveLength(0);
    expect(tableSize(rich)).toBe('2 rows × 2 columns, 1 header row, 1 footer row');
    expect(tableSize({ ...rich, footers: [[{ value: 'a' }, { value: 'b' }, { value: 'c' }], [{ value: 'd' }]] }), 'a wider footer widens the count').toBe('2 rows × 3 columns, 1 header row, 2 footer rows');
  });

  it('cells keep their links, citation markers that jump to the reference, and nested tables as links to their entry', () => {
    const grid = renderTableGrid(rich, MAIN_VIEW);
    const link = elements(grid, (el) => el.name === 'a' && getAttributeValue(el, 'href') === 'https://en.wikipedia.org/wiki/Green_Party')[0];
    expect(link && textContent(link), 'the link on its anchor text').toBe('Green');
    const cites = elements(grid, (el) => el.name === 'a' && getAttributeValue(el, 'class') === 'cite');
    expect(cites.map((a) => [textContent(a), getAttributeValue(a, 'href')]), 'body and footer citations, each to its reference').toEqual([
      ['[3]', `#${anchorId('ref', 'cite_note-3')}`],
      ['[9]', `#${anchorId('ref', 'cite_note-9')}`],
    ]);
    const nested = elements(grid, (el) => el.name === 'a' && getAttributeValue(el, 'class') === 'nested-table');
    expect(nested.map((a) => getAttributeValue(a, 'href')), 'to the nested tables’ own entries').toEqual([`#${anchorId('table', 'results_table1.inner <1>')}`, `#${anchorId('table', 'results_table2')}`]);
    expect(textContent(nested[0]!), 'names the table, escaped').toContain('results_table1.inner <1>');
    // The entry the link names exists in the list the same article renders: the jump lands.
    const list = renderTableList([rich, { ...rich, identifier: 'results_table2', footers: undefined }], MAIN_VIEW);
    expect(byName(list, 'details').map((d) => getAttributeValue(d, 'id')), 'the target entry is there').toContain(anchorId('table', 'results_table2'));
  });

  it('in the side-by-side pane (no anchors) cells make no in-page links, and cell text is escaped', () => {
    const pane = renderTableGrid(rich, SOURCE_PANE);
    expect(elements(pane, (el) => el.name === 'a' && (getAttributeValue(el, 'href') ?? '').startsWith('#')), 'no fragment links').toHaveLength(0);
    expect(elements(pane, (el) => getAttributeValue(el, 'class') === 'nested-table').map((el) => el.name), 'nested tables still named').toEqual(['span', 'span']);
    fc.assert(
      fc.property(fc.string(), fc.string(), (value, nested) => {
        const html = renderCell({ value, nested_table: nested, citations: [{ identifier: nested, text: value }] }, MAIN_VIEW);
        expect(elements(html).every((el) => ['a', 'sup'].includes(el.name)), 'only links and the marker wrapper').toBe(true);
        expect(textContent(dom(html)), 'the text and the table name read back').toContain(`nested table ${nested}`);
      }),
    );
  });

  it('confidence bands: high from 0.8, medium from 0.5, low below; the number is always written', () => {
    expect([1, 0.8, 0.79, 0.5, 0.49, 0].map(confidenceLevel)).toEqual(['high', 'high', 'medium', 'medium', 'low', 'low']);
    expect(confidenceBadge(0.456)).toContain('confidence 0.46');
  });

  it('a reference shows its type, text with links and metadata, under the id its citations use', () => {
    const html = renderReferences(
      [{ identifier: 'cite_note-1', group: null, type: 'book', metadata: { title: 'A <Book>', year: '2001' }, text: { value: 'Smith. A Book.', links: [{ url: 'https://x.org', text: 'Smith' }] } }],
      MAIN_VIEW,
    );
    const li = byName(html, 'li')[0]!;
    expect(getAttributeValue(li, 'id')).toBe(anchorId('ref', 'cite_note-1'));
    expect(getAttributeValue(li, 'tabindex'), 'focusable when jumped to').toBe('-1');
    expect(findAll((el) => el.name === 'dt', li.children).map((el) => textContent(el))).toEqual(['title', 'year']);
    expect(findAll((el) => el.name === 'dd', li.children).map((el) => textContent(el))).toEqual(['A <Book>', '2001']);
    expect(findAll((el) => el.name === 'a', li.children).map((el) => textContent(el))).toEqual(['Smith']);
    expect(textContent(li)).toContain('book');
  });

  it('the header names the article (linked), its description, abstract and counts', () => {
    const article: Article = { ...parse(FIXTURE('references')), name: 'Foo <bar>', url: 'https://en.wikipedia.org/wiki/Foo', description: 'A thing', abstract: 'Foo is.' };
    const html = renderHeader(article);
    expect(textContent(byName(html, 'h2')[0]!)).toBe('Foo <bar>');
    expect(getAttributeValue(byName(html, 'a')[0]!, 'href')).toBe('https://en.wikipedia.org/wiki/Foo');
    expect(textContent(dom(html))).toContain('A thing');
    expect(textContent(dom(html))).toContain(`${article.references.length} reference`);
  });
});

describe('a large article', () => {
  it('500 references and 200 sections render to one string with every reference anchored', () => {
    const references = Array.from({ length: 500 }, (_, i) => ({ identifier: `cite_note-${i}`, group: null, type: 'web', metadata: { title: `T${i}`, url: `https://x.org/${i}` }, text: { value: `Reference ${i}.` } }));
    const sections: Part[] = Array.from({ length: 200 }, (_, i) => ({ name: `S${i}`, type: 'section', has_parts: [{ type: 'paragraph', value: `P${i}`, citations: [{ identifier: `cite_note-${(i * 7) % 500}`, text: `[${i}]` }] }] }));
    const html = renderOutline(sections, MAIN_VIEW) + renderReferences(references, MAIN_VIEW);
    expect(byName(html, 'li'), 'every reference').toHaveLength(500);
    expect(byName(html, 'details'), 'every section').toHaveLength(200);
  });
});

function withoutFooters(table: Table): Table {
  const { footers: _dropped, ...rest } = table;
  return rest;
}
