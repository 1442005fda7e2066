/**
 * Generated documents of extreme shape, in both front doors: wide (one construct repeated as
 * siblings), deep (one construct nested in itself) and long (one construct left open, or repeated
 * unclosed, over a long stretch). Mutating real pages rarely builds these, yet they are what broke
 * the engine in issue 22: 130,000 paragraphs overflowed the stack (wide), spanned table cells asked
 * for 45 million slots (wide), unclosed `<ref>` made wikitext quadratic (long). A shape is plain
 * data drawn by fast-check, so a seed and an index give the same document again.
 */
import fc from 'fast-check';
import type { Dialect } from './mutations.js';

export type ShapeKind = 'wide' | 'deep' | 'long';

export interface Shape {
  door: Dialect;
  kind: ShapeKind;
  /** Index into the constructs of that door and kind (reduced modulo their number). */
  construct: number;
  /** Repetitions or levels (reduced to what fits the size cap). */
  count: number;
  /** For `deep`: close every level at the end, or leave them all open. */
  closed: boolean;
}

/**
 * One construct: `unit` repeated `count` times inside `before`…`after`; for deep shapes `unit`
 * opens a level, `close` closes it and `inner` sits innermost.
 */
interface Construct {
  name: string;
  unit: string;
  before?: string;
  after?: string;
  close?: string;
  inner?: string;
}

const HTML_HEAD = '<html><head><base href="//en.wikipedia.org/wiki/"></head><body><section data-mw-section-id="0"><p>Lead.</p>';
const HTML_TAIL = '</section></body></html>';
const SPANNING_ROWS = '<tr><td colspan=1000 rowspan=1000>x</td></tr>'.repeat(45);
const WIKITEXT_SPANNING_ROWS = '|-\n| colspan=1000 rowspan=1000 | x\n'.repeat(45);

const CONSTRUCTS: Record<Dialect, Record<ShapeKind, readonly Construct[]>> = {
  html: {
    wide: [
      { name: 'paragraphs', unit: '<p>a</p>' },
      { name: 'sections', unit: '<section data-mw-section-id="1"><h2>a</h2><p>b</p></section>' },
      { name: 'flat headings', unit: '<h3>a</h3>b' },
      { name: 'tables', unit: '<table class="wikitable"><tr><th>h</th></tr><tr><td>a</td></tr></table>' },
      { name: 'table rows', unit: '<tr><td>a</td><td>b</td></tr>', before: '<table class="wikitable">', after: '</table>' },
      { name: 'table cells', unit: '<td>a</td>', before: '<table class="wikitable"><tr>', after: '</tr></table>' },
      { name: 'one long row, one long column', unit: '<tr><td>b</td></tr>', before: `<table><tr>${'<td>a</td>'.repeat(2000)}</tr>`, after: '</table>' },
      { name: 'spanning cells', unit: '<tr><td colspan="1000" rowspan="1000">x</td></tr>', before: '<table class="wikitable">', after: '</table>' },
      { name: 'tables of spanning cells', unit: `<table class="wikitable">${SPANNING_ROWS}</table>` },
      { name: 'list items', unit: '<li>a</li>', before: '<ul>', after: '</ul>' },
      { name: 'links', unit: '<a rel="mw:WikiLink" href="./A" title="A">a</a> ' },
      { name: 'links in a spanning cell', unit: '<a href="./A">a</a>', before: '<table><tr><td colspan="1000" rowspan="50">', after: `</td></tr>${'<tr>'.repeat(49)}</table>` },
      { name: 'citations', unit: '<sup class="mw-ref reference" typeof="mw:Extension/ref"><a href="./P#cite_note-1">[1]</a></sup>', after: '<ol class="mw-references references"><li id="cite_note-1">Note.</li></ol>' },
      { name: 'reference lists', unit: '<sup class="reference"><a href="#cite_note-1">[1]</a></sup><ol class="references"><li id="cite_note-1">Note.</li></ol>' },
      { name: 'figures', unit: '<figure typeof="mw:File/Thumb"><a href="./File:A.jpg"><img src="//x/a.jpg"></a><figcaption>c</figcaption></figure>' },
      { name: 'infobox rows', unit: '<tr><th>label</th><td>value</td></tr>', before: '<table class="infobox">', after: '</table>' },
      { name: 'transclusions', unit: '<span typeof="mw:Transclusion" about="#mwt1" data-mw=\'{"parts":[{"template":{"target":{"wt":"Cite web"},"params":{"title":{"wt":"t"}}}}]}\'>x</span>' },
      { name: 'unclosed formatting', unit: '<b>a<i>b' },
      { name: 'definition lists', unit: '<dl><dt>a</dt><dd>b</dd></dl>' },
    ],
    deep: [
      { name: 'div', unit: '<div>', close: '</div>', inner: 'deep' },
      { name: 'span with stray end tag', unit: '<span></q>', close: '</span>', inner: 'deep' },
      { name: 'list', unit: '<ul><li>', close: '</li></ul>', inner: 'deep' },
      { name: 'table', unit: '<table><tr><td>', close: '</td></tr></table>', inner: 'deep' },
      { name: 'infobox', unit: '<table class="infobox"><tr><td>', close: '</td></tr></table>', inner: 'deep' },
      { name: 'section', unit: '<section data-mw-section-id="1"><h2>a</h2>', close: '</section>', inner: 'deep' },
      { name: 'blockquote', unit: '<blockquote>', close: '</blockquote>', inner: 'deep' },
      { name: 'reference list', unit: '<ol class="references"><li id="cite_note-1">', close: '</li></ol>', inner: 'deep' },
      { name: 'definition list', unit: '<dl><dd>', close: '</dd></dl>', inner: 'deep' },
    ],
    long: [
      { name: 'one paragraph', unit: 'word ', before: '<p>', after: '</p>' },
      { name: 'one cell of text spanning', unit: 'word ', before: '<table><tr><td colspan="1000" rowspan="50">', after: `</td></tr>${'<tr>'.repeat(49)}</table>` },
      { name: 'unclosed comment', unit: 'a -- b ', before: '<p><!--' },
      { name: 'unclosed table', unit: '<tr><td>a', before: '<table>' },
      { name: 'text without markup', unit: 'a' },
    ],
  },
  wikitext: {
    wide: [
      { name: 'paragraphs', unit: 'a\n\n' },
      { name: 'sections', unit: '== a ==\nb\n' },
      { name: 'headings', unit: '= a =\n' },
      { name: 'templates', unit: '{{t|a=b}}\n' },
      { name: 'links', unit: '[[a]] ' },
      { name: 'named references', unit: '<ref name="r"/>', before: 'a<ref name="r">body</ref>', after: '\n<references/>\n' },
      { name: 'references', unit: '<ref>a</ref>', after: '\n<references/>\n' },
      { name: 'tables', unit: '{|\n|a\n|}\n' },
      { name: 'table rows', unit: '|-\n|a||b\n', before: '{|\n', after: '|}\n' },
      { name: 'cells in one row', unit: ' || b', before: '{|\n|-\n| a', after: '\n|}\n' },
      { name: 'spanning cells', unit: '|-\n| colspan=1000 rowspan=1000 | x\n', before: '{|\n', after: '|}\n' },
      { name: 'tables of spanning cells', unit: `{| class="wikitable"\n${WIKITEXT_SPANNING_ROWS}|}\n` },
      { name: 'list items', unit: '* a\n' },
      { name: 'language conversions', unit: '-{a}-' },
      { name: 'template arguments', unit: '{{{a}}}\n' },
      { name: 'external links', unit: '[http://example.org a] ' },
      { name: 'HTML tags', unit: '<div>a</div>' },
      { name: 'images', unit: '[[File:A.jpg|thumb|a]]\n' },
      { name: 'infobox fields', unit: '| f = v\n', before: '{{Infobox person\n', after: '}}\n' },
    ],
    deep: [
      { name: 'templates', unit: '{{a|', close: '}}', inner: 'x' },
      { name: 'links', unit: '[[a|', close: ']]', inner: 'x' },
      { name: 'tables', unit: '{|\n|', close: '\n|}', inner: 'x' },
      { name: 'references', unit: '<ref>', close: '</ref>', inner: 'x' },
      { name: 'div', unit: '<div>', close: '</div>', inner: 'x' },
      { name: 'language conversions', unit: '-{', close: '}-', inner: 'x' },
      { name: 'quotes', unit: "''", close: "''", inner: 'x' },
      { name: 'template arguments', unit: '{{{', close: '}}}', inner: 'x' },
      { name: 'images', unit: '[[File:A.jpg|', close: ']]', inner: 'x' },
      { name: 'list markers', unit: '*#:', close: '', inner: ' x\n' },
    ],
    long: [
      { name: 'unclosed references', unit: '<ref>a ' },
      { name: 'unclosed reference attributes', unit: '<ref name=a ' },
      { name: 'unclosed external links', unit: '[http://example.org a ' },
      { name: 'unclosed nowiki, pre, poem, math, gallery', unit: '<nowiki>a<pre>b<poem>c<math>d<gallery>e' },
      { name: 'unclosed inclusion tags', unit: '<noinclude a <includeonly b ' },
      { name: 'one long line', unit: 'word ' },
      { name: 'unclosed quotes and comments', unit: "'''a ''b <!--c " },
      { name: 'one cell of text spanning', unit: 'word ', before: '{|\n| colspan=1000 rowspan=50 | ', after: `\n${'|-\n|a\n'.repeat(49)}|}\n` },
    ],
  },
};

/** Log-spread counts: a few, thousands, hundreds of thousands (cut to the size cap). */
const counts = fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 100, max: 10_000 }), fc.integer({ min: 10_000, max: 300_000 }));

export const shapeArbitrary = (door: Dialect): fc.Arbitrary<Shape> =>
  fc.record({ door: fc.constant(door), kind: fc.constantFrom<ShapeKind>('wide', 'deep', 'long'), construct: fc.nat(), count: counts, closed: fc.boolean() });

/** Every construct, for tests that run each one. */
export function constructsOf(door: Dialect, kind: ShapeKind): readonly { name: string }[] {
  return CONSTRUCTS[door][kind];
}

/**
 * The document of a shape, at most about `cap` characters, a one-line description for reports, and
 * `count`, the repetitions or levels it got (the drawn count cut to the cap).
 */
export function shapeDocument(shape: Shape, cap: number): { text: string; description: string; count: number } {
  const list = CONSTRUCTS[shape.door][shape.kind];
  const c = list[shape.construct % list.length]!;
  const fixed = (c.before ?? '').length + (c.after ?? '').length + (c.inner ?? '').length;
  const per = c.unit.length + (shape.kind === 'deep' && shape.closed ? (c.close ?? '').length : 0);
  const count = Math.max(1, Math.min(shape.count, Math.floor((cap - fixed) / per)));
  let body: string;
  if (shape.kind === 'deep') body = c.unit.repeat(count) + (c.inner ?? '') + (shape.closed ? (c.close ?? '').repeat(count) : '');
  else body = c.unit.repeat(count);
  body = (c.before ?? '') + body + (c.after ?? '');
  const text = shape.door === 'html' ? HTML_HEAD + body + HTML_TAIL : `Lead.\n\n${body}`;
  const open = shape.kind === 'deep' ? (shape.closed ? ' closed' : ' unclosed') : '';
  return { text, description: `${shape.kind} ${shape.door}: ${c.name} ×${count}${open}`, count };
}
