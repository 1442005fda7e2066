import { describe, expect, it } from 'vitest';
import { parse, parseWikitext } from '../../src/index.js';
import type { Table } from '../../src/index.js';

const page = (body: string): string =>
  `<html><head><meta property="mw:htmlVersion" content="2.8.0"/><base href="//en.wikipedia.org/wiki/"/><title>T</title></head><body><section data-mw-section-id="0"><p>Lead.</p></section><section data-mw-section-id="1"><h2>S</h2>${body}</section></body></html>`;

const tablesOf = (body: string): Table[] => parse(page(body)).tables;

const clean = `<table class="wikitable"><tr><th>A</th><th>B</th><th>C</th></tr>
  <tr><td>1</td><td>2</td><td>3</td></tr><tr><td>4</td><td>5</td><td>6</td></tr><tr><td>7</td><td>8</td><td>9</td></tr></table>`;
const ragged = `<table><tr><td>1</td></tr><tr><td>2</td><td>3</td><td>4</td></tr><tr><td></td><td>5</td></tr><tr><td><ul><li>x</li></ul></td></tr></table>`;

describe('tables', () => {
  it('scores a clean data table above a ragged one', () => {
    const [a] = tablesOf(clean);
    const [b] = tablesOf(ragged);
    expect(a!.confidence_score, 'clean wikitable with header row').toBe(1);
    expect(b!.confidence_score, 'ragged, headerless, sparse').toBeLessThan(0.5);
    expect(a!.confidence_score).toBeGreaterThan(b!.confidence_score);
  });

  it('penalises nested tables, layout classes and single-row tables', () => {
    const nested = tablesOf(`<table class="wikitable"><tr><th>A</th><th>B</th></tr><tr><td>1</td><td><table><tr><td>x</td><td>y</td></tr></table></td></tr></table>`);
    expect(nested[0]!.confidence_score, 'outer table has a nested table').toBeLessThan(0.75);
    expect(nested[1]!.identifier, 'nested table becomes its own entry').toBe('s_table2');
    const single = tablesOf(`<table class="wikitable"><tr><th>A</th><th>B</th></tr></table>`);
    expect(single[0]!.confidence_score, 'one row is not much of a table').toBeLessThanOrEqual(0.5);
    const quote = tablesOf(`<table class="quotebox"><tr><td>q</td></tr></table>`);
    expect(quote, 'layout tables are not tables: their text is section content').toEqual([]);
  });

  it('expands rowspan and colspan by repeating the spanned value', () => {
    const [t] = tablesOf(`<table class="wikitable"><tr><th>K</th><th>V</th><th>W</th></tr>
      <tr><td rowspan="3">r</td><td colspan="2">c</td></tr><tr><td>1</td><td>2</td></tr></table>`);
    expect(t!.rows).toEqual([
      [{ value: 'r' }, { value: 'c' }, { value: 'c' }],
      [{ value: 'r' }, { value: '1' }, { value: '2' }],
    ]);
  });

  it('caps absurd spans so a hostile table cannot exhaust memory', () => {
    const [t] = tablesOf(`<table><tr><td colspan="999999" rowspan="999999">x</td></tr><tr><td>y</td></tr></table>`);
    const grid = [...t!.headers, ...t!.rows];
    expect(grid.length, 'rowspan stops at the last row').toBe(2);
    expect(grid[1]![999]!.value, 'colspan capped at the HTML maximum of 1000, repeated into row 2').toBe('x');
    expect(grid[1]![1000]!.value, "row 2's own cell lands after the spanned block").toBe('y');
    expect(grid[0]!.length, 'the grid is 1001 wide, not a million').toBe(1001);
  });

  it('keeps row headers in the row and reads thead rows as headers', () => {
    const [t] = tablesOf(`<table class="wikitable"><thead><tr><td>Year</td><td>N</td></tr></thead><tbody><tr><th>2001</th><td>5</td></tr></tbody></table>`);
    expect(t!.headers).toEqual([[{ value: 'Year' }, { value: 'N' }]]);
    expect(t!.rows).toEqual([[{ value: '2001' }, { value: '5' }]]);
  });

  it('gives identifiers that are unique and stable across runs', () => {
    const body = clean + ragged + clean;
    const first = tablesOf(body).map((t) => t.identifier);
    expect(new Set(first).size).toBe(3);
    expect(tablesOf(body).map((t) => t.identifier)).toEqual(first);
  });
});

const rendered = (indicators: string, content: string): string =>
  `<html><head><script>RLCONF={"wgNamespaceNumber":10,"wgTitle":"Infobox x","wgCanonicalNamespace":"Template"};</script></head><body>` +
  `<div class="mw-indicators">${indicators}</div><div id="bodyContent"><div id="mw-content-text" class="mw-body-content"><div class="mw-parser-output">${content}</div></div></div>` +
  `<script type="application/ld+json">{"@type":"Article","dateModified":"2023-05-23T19:44:56Z"}</script></body></html>`;

describe('every layout', () => {
  it('takes the content root from #mw-content-text, not the first .mw-parser-output (an indicator)', () => {
    const a = parse(rendered('<div class="mw-indicator"><div class="mw-parser-output"><a href="/wiki/GA">star</a></div></div>', '<p>The lead.</p><h2>S</h2><p>Body.</p>'));
    expect(a.abstract, 'the lead of the article, not the indicator').toBe('The lead.');
    expect(a.sections.map((s) => s.name), 'sections found').toEqual(['abstract', 'S']);
  });

  it('reads date_modified from the JSON-LD and the namespace from RLCONF of a skin page', () => {
    const a = parse(rendered('', '<p>x</p>'));
    expect(a.date_modified, 'JSON-LD dateModified, UTC').toBe('2023-05-23T19:44:56Z');
    expect(a.namespace, 'a template page is marked by its namespace').toEqual({ identifier: 10 });
  });

  it('reads the namespace of Parsoid pages and envelopes', () => {
    const html = page('<p>x</p>').replace('<title>', '<meta property="mw:pageNamespace" content="0"/><title>');
    expect(parse(html).namespace, 'mw:pageNamespace').toEqual({ identifier: 0 });
    expect(parse({ namespace: { identifier: 4 }, article_body: { html: page('<p>x</p>') } }).namespace, 'envelope').toEqual({ identifier: 4 });
  });

  it('looks through a style-only table that places infoboxes, keeping the short description', () => {
    const a = parse(
      page(
        '<table style="float: right"><tr><td><div class="shortdescription nomobile noexcerpt noprint searchaux" style="display:none">A city</div>' +
          '<table class="infobox"><tr><th>Mayor</th><td>X</td></tr></table></td></tr><tr><td><table class="infobox"><tr><th>Area</th><td>5</td></tr></table></td></tr></table>',
      ),
    );
    expect(a.tables, 'no junk data tables').toEqual([]);
    expect(a.infoboxes.length, 'both infoboxes read').toBe(2);
    expect(a.description, 'the short description inside the wrapper').toBe('A city');
  });
});

describe('cells', () => {
  it('carry links and citations, exclude hidden padding and separate numeric superscripts', () => {
    const [t] = tablesOf(
      `<table class="wikitable"><tr><th>A</th><th>B</th></tr><tr><td><a rel="mw:WikiLink" href="./Berlin">Berlin</a><sup class="mw-ref reference" typeof="mw:Extension/ref"><a href="./T#cite_note-1"><span class="mw-reflink-text">[1]</span></a></sup></td>` +
        `<td>156,4<span style="visibility:hidden;">0</span></td></tr><tr><td>6:7<sup>7</sup></td><td>1<sup>er</sup></td></tr></table>`,
    );
    expect(t!.rows[0]![0], 'link and citation kept on the cell').toEqual({
      value: 'Berlin',
      links: [{ url: 'https://en.wikipedia.org/wiki/Berlin', text: 'Berlin' }],
      citations: [{ identifier: 'cite_note-1', text: '[1]' }],
    });
    expect(t!.rows[0]![1]!.value, 'invisible padding is not text').toBe('156,4');
    expect(t!.rows[1]![0]!.value, 'a numeric superscript after a caret').toBe('6:7^7');
    expect(t!.rows[1]![1]!.value, 'an ordinal stays glued').toBe('1er');
  });

  it('finds the header row under a title row, drops empty rows and reads footers', () => {
    const [t] = tablesOf(
      `<table class="wikitable"><tr><td colspan="2">Results 2001</td></tr><tr><th>A</th><th>B</th></tr><tr></tr><tr><td>1</td><td>2</td></tr>` +
        `<tr class="sortbottom"><td>Total</td><td>2</td></tr><tfoot><tr><td>f</td><td>g</td></tr></tfoot></table>`,
    );
    expect(t!.headers, 'title row and th row').toEqual([
      [{ value: 'Results 2001' }, { value: 'Results 2001' }],
      [{ value: 'A' }, { value: 'B' }],
    ]);
    expect(t!.rows, 'the empty <tr> is gone').toEqual([[{ value: '1' }, { value: '2' }]]);
    expect(t!.footers, 'sortbottom and tfoot rows').toEqual([
      [{ value: 'Total' }, { value: '2' }],
      [{ value: 'f' }, { value: 'g' }],
    ]);
  });

  it('keeps an empty row a rowspan reaches', () => {
    const [t] = tablesOf(`<table class="wikitable"><tr><th>A</th><th>B</th></tr><tr><td rowspan="2">r</td><td>1</td></tr><tr></tr></table>`);
    expect(t!.rows.length, 'the spanned value fills the second row').toBe(2);
  });

  it('names the nested table a cell holds; identifiers follow the section path and are unique', () => {
    const html = page(`${clean}<h3>Sub part</h3><table class="wikitable"><tr><th>A</th></tr><tr><td><table><tr><td>x</td></tr></table></td></tr></table>`).replace(
      '</body>',
      `<section data-mw-section-id="2"><h2>S</h2>${clean}</section></body>`,
    );
    const a = parse(html);
    const ids = a.tables.map((t) => t.identifier);
    expect(ids, 'section path and position; a repeated heading continues the numbering').toEqual(['s_table1', 's.sub_part_table1', 's.sub_part_table2', 's_table2']);
    expect(a.tables[1]!.rows[0]![0]!.nested_table, 'the cell names its nested table').toBe('s.sub_part_table2');
  });
});

describe('tables on the wikitext front door', () => {
  it('gives cells links, names nested tables, reads sortbottom footers and path identifiers', () => {
    const a = parseWikitext(
      '== Votes ==\n=== By state ===\n{| class="wikitable"\n! State !! Votes\n|-\n| [[Ohio]] || 5\n|-\n| Iowa ||\n{|\n| inner\n|}\n|- class="sortbottom"\n| Total || 5\n|}',
      { name: 'T', project: 'enwiki' },
    );
    const [outer, inner] = a.tables;
    expect(outer!.identifier, 'section path and position').toBe('votes.by_state_table1');
    expect(outer!.rows[0]![0], 'a link on the cell').toEqual({ value: 'Ohio', links: [{ url: 'https://en.wikipedia.org/wiki/Ohio', text: 'Ohio' }] });
    expect(outer!.rows[1]![1]!.nested_table, 'the cell names its nested table').toBe(inner!.identifier);
    expect(inner!.identifier).toBe('votes.by_state_table2');
    expect(outer!.footers, 'the sortbottom row').toEqual([[{ value: 'Total' }, { value: '5' }]]);
    expect(a.namespace, 'no namespace given, none invented').toBeUndefined();
    expect(parseWikitext('x', { namespace: 10 }).namespace, 'the meta namespace is output').toEqual({ identifier: 10 });
  });
});
