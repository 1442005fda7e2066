/**
 * Mutations of page text. A mutation is plain data drawn by fast-check (positions as naturals
 * reduced modulo the text's length), so an input is fully determined by the seed and its index and
 * can be regenerated; `applyMutation` interprets it against the text at hand.
 */
import { escapeAttribute } from 'entities';
import fc from 'fast-check';
import { dataMwValue } from './arbitraries.js';

export type Mutation =
  /** Replace one UTF-16 code unit (may leave a lone surrogate). */
  | { op: 'char'; at: number; char: string }
  /** Flip one bit of one UTF-8 byte of a short stretch, decoded back with replacement characters. */
  | { op: 'byte'; at: number; bit: number }
  /** Insert a stretch of another page (`donor`, an index into the pool). */
  | { op: 'splice'; at: number; donor: number; from: number; length: number }
  /** Repeat a run starting at a tag (or line, for wikitext). */
  | { op: 'duplicate'; at: number; length: number; times: number }
  | { op: 'delete'; at: number; length: number }
  /** Open `depth` copies of `open` at one point, closing them after `span` characters or never. */
  | { op: 'nest'; at: number; open: string; close: string; depth: number; span: number; closed: boolean }
  /** Insert an odd token: NUL, lone surrogates, broken entities, stray markup. */
  | { op: 'insert'; at: number; text: string }
  /** Replace the value of the `at`-th attribute called `name`, or add it to a tag. */
  | { op: 'attribute'; at: number; name: string; value: string; quoting: 'escaped' | 'raw' | 'single' | 'bare' }
  | { op: 'truncate'; at: number };

const at = fc.nat();
/** Log-spread lengths: mostly short, sometimes long. */
const length = fc.oneof(fc.integer({ min: 1, max: 32 }), fc.integer({ min: 1, max: 2_048 }), fc.integer({ min: 1, max: 131_072 }));
const depth = fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 3_000 }), fc.integer({ min: 1, max: 50_000 }));

const ODD_TEXT = [
  '\u0000', '\uD800', '\uDFFF', '\uDBFF\uDFFF', '\uFEFF', '\u2028', '\uFFFF', '\uFFFE', '\r', '\u000B', '\u0085', '\u200B',
];
const ODD_HTML = [
  '&', '&#', '&#x;', '&#0;', '&#xD800;', '&#1114112;', '&#99999999999;', '&amp', '&nbsp', '&notanentity;', '&#x110000;',
  '<', '</', '<!--', '-->', '<![CDATA[', '<!DOCTYPE html>', '<?xml version="1.0"?>', '<script>', '<style>', '<textarea>',
  '<plaintext>', '<title>', '<svg><foreignObject>', '<math>', '<template>', '</body>', '</html>', '<html>', '<body>', '<head>',
  '<table>', '</table>', '<tr>', '<td>', '<li>', '</li>', '</ol>', '<section data-mw-section-id="x">', '</section>', '<h2>', '</h2>',
  '<sup class="reference"><a href="#cite_note-9">[9]</a></sup>', '<ol class="references"><li id="cite_note-9">', '<table class="infobox">',
  '<figure typeof="mw:File">', '<meta property="mw:pageId" content="99999999999999999999"/>', '<base href="%"/>', '<base href="//xx.wikipedia.org/wiki/"/>',
  '<script>RLCONF={"wgArticleId":99999999999999999999,"wgRevisionId":0,"wgTitle":"\\ud800","wgPageContentLanguage":""};</script>',
  '<link rel="canonical" href="https://en.wikipedia.org/wiki/%"/>', '<img>', '<br/>', '"', "'", '=', '>', '/>', '<a href=', '<div class="mw-parser-output">',
];
const ODD_WIKITEXT = [
  '{{', '}}', '[[', ']]', '{|', '|}', '|-', '||', '!!', '|', '{{{', '}}}', '<ref>', '</ref>', '<ref name=x/>', '<ref name="x">',
  '<references/>', '==', '\n== X ==\n', "'''", "''", '<!--', '-->', '<nowiki>', '</nowiki>', '__TOC__', '{{#if:', '{{Infobox ',
  '[[File:X.jpg|thumb|', '[[Category:', '-{', '}-', '<div>', '</div>', '<pre>', '<math>', '\n* ', '\n# ', '\n:', '\n;', '~~~~',
  '{{cite web|url=', '<gallery>', '</gallery>', '&', '&nbsp', '<', '>',
];

const HTML_NESTS: [string, string][] = [
  ['<div>', '</div>'], ['<span>', '</span>'], ['<section>', '</section>'], ['<table><tr><td>', '</td></tr></table>'],
  ['<ul><li>', '</li></ul>'], ['<ol class="references"><li id="cite_note-1">', '</li></ol>'], ['<dl><dd>', '</dd></dl>'],
  ['<blockquote>', '</blockquote>'], ['<b>', '</b>'], ['<a href="./X">', '</a>'], ['<sup>', '</sup>'], ['<figure>', '</figure>'],
  ['<p>', '</p>'], ['<table class="infobox"><tr><td>', '</td></tr></table>'], ['<span typeof="mw:Transclusion" data-mw="{}">', '</span>'],
];
const WIKITEXT_NESTS: [string, string][] = [
  ['{{a|', '}}'], ['[[', ']]'], ['{|\n|', '\n|}'], ['<div>', '</div>'], ["''", "''"], ['<ref>', '</ref>'], ['{{{', '}}}'],
  ['<span>', '</span>'], ['\n*', ''], ['[[File:X.jpg|', ']]'], ['-{', '}-'],
];

const ATTRIBUTE_VALUES: Record<string, fc.Arbitrary<string>> = {
  'data-mw': dataMwValue,
  typeof: fc.constantFrom('mw:Transclusion', 'mw:Extension/ref', 'mw:Extension/references', 'mw:File', 'mw:File/Thumb', 'mw:Image', 'mw:Nowiki', 'mw:Transclusion mw:Extension/ref', '', ' '),
  class: fc.constantFrom('infobox', 'references', 'mw-references', 'reflist', 'navbox', 'mw-parser-output', 'thumb', 'gallery', 'wikitable', 'reference', 'mw-reference-text', 'Z3988', 'hatnote', 'mw-editsection', 'infobox vcard', ''),
  style: fc.constantFrom('display:none', 'DISPLAY : NONE !important', 'display:none;display:block', 'visibility:hidden', '/*', ';;;', 'display:'),
  href: fc.constantFrom('%', '%%E0%A4', 'javascript:alert(1)', './', './#cite_note-1', '#cite_note-', '//', 'http://[::1', 'https://', '../../../x', './File:%', `./${'x'.repeat(5000)}`, ''),
  id: fc.constantFrom('cite_note-1', 'cite_note-', 'cite_ref-1', '', ' ', '__proto__', 'constructor'),
  about: fc.constantFrom('#mwt1', '#mwt2', '', '#mwt1 #mwt2', 'http://en.wikipedia.org/wiki/Special:Redirect/revision/99999999999999999999', '/revision/-1'),
  colspan: fc.constantFrom('0', '-1', '99999', '1e9', 'NaN', 'x', '2.5', '65535', ''),
  rowspan: fc.constantFrom('0', '-1', '99999', '1e9', 'NaN', 'x', '2.5', '65535', ''),
  src: fc.constantFrom('', '//', 'data:x', '%', './x.jpg', '//upload.wikimedia.org/%E0.jpg'),
  width: fc.constantFrom('-1', '1e309', 'x', '', '99999999999999999999'),
  height: fc.constantFrom('-1', '1e309', 'x', '', '99999999999999999999'),
  'data-mw-section-id': fc.constantFrom('-1', 'x', '', '99999999999', '0', '-2'),
  'data-mw-group': fc.constantFrom('', 'note', ' ', '__proto__'),
  rel: fc.constantFrom('mw:WikiLink', 'mw:ExtLink', 'mw:PageProp/Category', ''),
  property: fc.constantFrom('mw:htmlVersion', 'mw:PageProp/toc', ''),
  content: fc.constantFrom('', '%', 'x', '2.8.0'),
  lang: fc.constantFrom('', 'xx', 'en', 'ar', '__proto__'),
};
const attributeName = fc.constantFrom(...Object.keys(ATTRIBUTE_VALUES));

const htmlAttribute: fc.Arbitrary<Mutation> = attributeName.chain((name) =>
  fc.record({
    op: fc.constant('attribute' as const),
    at,
    name: fc.constant(name),
    value: ATTRIBUTE_VALUES[name]!,
    quoting: fc.constantFrom('escaped', 'escaped', 'raw', 'single', 'bare'),
  }),
);

function common(odd: string[], nests: [string, string][]): fc.Arbitrary<Mutation> {
  return fc.oneof(
    fc.record({ op: fc.constant('char' as const), at, char: fc.oneof(fc.constantFrom('<', '>', '&', '"', "'", '/', '=', '|', '{', '}', '[', ']', '\n'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })) }),
    fc.record({ op: fc.constant('byte' as const), at, bit: fc.integer({ min: 0, max: 7 }) }),
    fc.record({ op: fc.constant('splice' as const), at, donor: fc.nat(), from: fc.nat(), length }),
    fc.record({ op: fc.constant('duplicate' as const), at, length, times: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 200 })) }),
    fc.record({ op: fc.constant('delete' as const), at, length }),
    fc.record({ op: fc.constant('nest' as const), at, pair: fc.constantFrom(...nests), depth, span: length, closed: fc.boolean() }).map(({ pair, ...m }) => ({ ...m, open: pair[0], close: pair[1] })),
    fc.record({ op: fc.constant('insert' as const), at, text: fc.oneof(fc.constantFrom(...ODD_TEXT), fc.constantFrom(...odd), fc.string({ unit: 'binary', maxLength: 8 })) }),
    fc.record({ op: fc.constant('truncate' as const), at }),
  );
}

export const htmlMutation: fc.Arbitrary<Mutation> = fc.oneof({ weight: 8, arbitrary: common(ODD_HTML, HTML_NESTS) }, { weight: 3, arbitrary: htmlAttribute });
export const wikitextMutation: fc.Arbitrary<Mutation> = common(ODD_WIKITEXT, WIKITEXT_NESTS);

/** A short name for reports: "nest ×3000", "attribute data-mw". */
export function describeMutation(m: Mutation): string {
  switch (m.op) {
    case 'nest':
      return `nest ${m.open} ×${m.depth}${m.closed ? '' : ' unclosed'}`;
    case 'attribute':
      return `attribute ${m.name} (${m.quoting})`;
    case 'duplicate':
      return `duplicate ×${m.times}`;
    case 'insert':
      return `insert ${JSON.stringify(m.text).slice(0, 40)}`;
    default:
      return m.op;
  }
}

export type Dialect = 'html' | 'wikitext';

/** Applies `m` to `text`; `pool` supplies splice donors. */
export function applyMutation(text: string, m: Mutation, dialect: Dialect, pool: readonly string[]): string {
  const pos = m.at % (text.length + 1);
  switch (m.op) {
    case 'char':
      return text.slice(0, pos) + m.char + text.slice(pos + 1);
    case 'byte':
      return flipByte(text, pos, m.bit);
    case 'splice': {
      const donor = pool.length > 0 ? pool[m.donor % pool.length]! : text;
      const from = m.from % (donor.length + 1);
      return text.slice(0, pos) + donor.slice(from, from + m.length) + text.slice(pos);
    }
    case 'duplicate': {
      const start = runStart(text, pos, dialect);
      const run = text.slice(start, runEnd(text, start + m.length, dialect));
      return text.slice(0, start) + run.repeat(m.times + 1) + text.slice(start + run.length);
    }
    case 'delete': {
      const start = runStart(text, pos, dialect);
      return text.slice(0, start) + text.slice(runEnd(text, start + m.length, dialect));
    }
    case 'nest': {
      const end = Math.min(text.length, pos + m.span);
      const close = m.closed ? m.close.repeat(m.depth) : '';
      return text.slice(0, pos) + m.open.repeat(m.depth) + text.slice(pos, end) + close + text.slice(end);
    }
    case 'insert':
      return text.slice(0, pos) + m.text + text.slice(pos);
    case 'attribute':
      return setAttribute(text, pos, m);
    case 'truncate':
      return text.slice(0, pos);
  }
}

function flipByte(text: string, pos: number, bit: number): string {
  const start = Math.max(0, pos - 8);
  const bytes = Buffer.from(text.slice(start, pos + 8), 'utf8');
  if (bytes.length === 0) return text;
  const i = (pos - start) % bytes.length;
  bytes[i] = bytes[i]! ^ (1 << bit);
  return text.slice(0, start) + bytes.toString('utf8') + text.slice(pos + 8);
}

/** Runs start at a tag (HTML) or a line (wikitext), so that duplicates and deletions keep structure. */
function runStart(text: string, pos: number, dialect: Dialect): number {
  const at = text.indexOf(dialect === 'html' ? '<' : '\n', pos);
  return at < 0 ? pos : at;
}

function runEnd(text: string, pos: number, dialect: Dialect): number {
  if (pos >= text.length) return text.length;
  const at = text.indexOf(dialect === 'html' ? '>' : '\n', pos);
  return at < 0 ? text.length : at + 1;
}

function quote(value: string, quoting: Extract<Mutation, { op: 'attribute' }>['quoting']): string {
  switch (quoting) {
    case 'escaped':
      return `"${escapeAttribute(value)}"`;
    case 'raw':
      return `"${value}"`;
    case 'single':
      return `'${value.replace(/'/g, '&#39;')}'`;
    case 'bare':
      return value;
  }
}

/** The attribute `m.name` of the first tag at or after `pos` that has one, else added to that tag. */
function setAttribute(text: string, pos: number, m: Extract<Mutation, { op: 'attribute' }>): string {
  const value = quote(m.value, m.quoting);
  const pattern = new RegExp(`\\s${m.name}\\s*=\\s*("[^"]*"|'[^']*'|[^\\s>]*)`, 'gi');
  pattern.lastIndex = pos;
  const hit = pattern.exec(text) ?? ((pattern.lastIndex = 0), pattern.exec(text));
  if (hit !== null) {
    const valueAt = hit.index + hit[0].length - hit[1]!.length;
    return text.slice(0, valueAt) + value + text.slice(hit.index + hit[0].length);
  }
  const tag = /<[a-zA-Z][^\s/>]*/g;
  tag.lastIndex = pos;
  const open = tag.exec(text) ?? ((tag.lastIndex = 0), tag.exec(text));
  if (open === null) return text;
  const end = open.index + open[0].length;
  return `${text.slice(0, end)} ${m.name}=${value}${text.slice(end)}`;
}
