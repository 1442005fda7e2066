/**
 * What must never be left in the text of an Article made from wikitext, as checks on one string:
 * leftover markup and entities, namespace-prefixed link text and image options of the article's
 * own wiki, and presentational infobox parameters. Shared by the wikitext conformance report
 * (scripts/conformance-wikitext.ts), its gate (test/wikitext/conformance.test.ts) and property
 * tests. Every definition here is the one docs/conformance.md ("Wikitext corpus") states.
 */
import { decodeHTMLStrict } from 'entities';
import type { Article, Image, Link, Part, Reference, TableCell } from '../../src/index.js';

/** What a wiki calls things, as far as these checks need it. */
export interface WikiVocabulary {
  /** Names and aliases (any case, `_` or space) of the namespaces a link text must not start with: Media (-2), File (6), Template (10), Category (14), canonical English names included. */
  namespaces: readonly string[];
  /** Image option magic words as MediaWiki lists them (img_*), `$1` kept: "thumb", "サムネイル", "$1px", "upright=$1". */
  imageOptions: readonly string[];
  /** Behaviour switches as written ("__NOTOC__", "__目次非表示__"). */
  switches: readonly string[];
}

export const MARKUP_KINDS = ['link', 'template', 'table', 'quotes', 'tag', 'entity', 'switch', 'variant'] as const;
export type MarkupKind = (typeof MARKUP_KINDS)[number];

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const FIXED: readonly [MarkupKind, RegExp][] = [
  ['link', /\[\[|\]\]/],
  ['template', /\{\{|\}\}/],
  ['table', /\{\||\|\}/],
  ['quotes', /''/],
  // An HTML or extension tag, opening or closing, or a comment: "<ref", "</div>", "<br/>", "<!--".
  ['tag', /<\/?[a-z][a-z0-9]*(?=[\s/>])|<!--/i],
  // LanguageConverter markup (zhwiki "-{zh-hans:…}-").
  ['variant', /-\{|\}-/],
];

const ENTITY = /&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]{1,31});/g;

/**
 * Whether `s` holds an HTML character reference that HTML decoding would replace: a numeric one,
 * or a named one that is a real entity name ("&nbsp;", "&ndash;"; not "&foo;").
 */
export function hasEntity(s: string): boolean {
  if (!s.includes('&')) return false;
  for (const m of s.matchAll(ENTITY)) if (m[0][1] === '#' || decodeHTMLStrict(m[0]) !== m[0]) return true;
  return false;
}

/** Scripts written without spaces between words: a namespace name in them may follow any letter. */
const UNSPACED = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** A compiled vocabulary: the regular expressions the checks run. */
export interface CompiledVocabulary {
  namespacePrefix: RegExp;
  imageOption: (segment: string) => boolean;
  widthToken: RegExp | undefined;
  switches: RegExp | undefined;
}

/**
 * Namespace names as a "Name:" pattern: case-insensitive, a space or `_` where the name has one,
 * spaces allowed before the colon, something after it. A name in a spaced script must start a
 * word (`Categoría:` yes, `Subcategoría:` no); one in a script without spaces may follow anything.
 */
function namespacePattern(names: readonly string[]): RegExp {
  const unique = [...new Set(names.map((n) => n.replace(/_/g, ' ').trim()).filter((n) => n.length > 0))].sort((a, b) => b.length - a.length);
  const alt = (list: string[]): string => list.map((n) => escape(n).replace(/ /g, '[ _]+')).join('|');
  const spaced = unique.filter((n) => !UNSPACED.test(n));
  const unspaced = unique.filter((n) => UNSPACED.test(n));
  const branches: string[] = [];
  if (spaced.length > 0) branches.push(`(?<![\\p{L}\\p{M}\\p{N}_])(?:${alt(spaced)})`);
  if (unspaced.length > 0) branches.push(`(?:${alt(unspaced)})`);
  if (branches.length === 0) return /(?!)/;
  return new RegExp(`(?:${branches.join('|')})\\s*:(?=\\s*\\S)`, 'iu');
}

/**
 * Image options: a segment equal to a word without `$1`, or matching a `$1` form — for the width
 * forms (`$1px`, `$1ピクセル`) `$1` is a size ("250", "x120", "250x120"), for the others
 * (`upright=$1`, `alt=$1`, `サムネイル=$1`) anything. Matched as MediaWiki does: case-sensitive.
 */
function imageOptionTest(words: readonly string[]): { test: (segment: string) => boolean; width: RegExp | undefined } {
  const plain = new Set<string>();
  const forms: RegExp[] = [];
  const widths: string[] = [];
  for (const w of words) {
    if (!w.includes('$1')) {
      plain.add(w);
      continue;
    }
    const [before, after] = w.split('$1') as [string, string];
    if (before === '' && after !== '' && !after.includes('=')) {
      widths.push(`(?:[0-9]+|[0-9]*x[0-9]+)${escape(after)}`);
    } else {
      forms.push(new RegExp(`^${escape(before)}.*${escape(after)}$`, 's'));
    }
  }
  const widthAlone = widths.length === 0 ? undefined : new RegExp(`^(?:${widths.join('|')})$`);
  const widthToken = widths.length === 0 ? undefined : new RegExp(`(?<![\\p{L}\\p{N}])(?:${widths.join('|')})(?![\\p{L}\\p{N}])`, 'u');
  return {
    test: (segment) => plain.has(segment) || widthAlone?.test(segment) === true || forms.some((f) => f.test(segment)),
    width: widthToken,
  };
}

export function compileVocabulary(v: WikiVocabulary): CompiledVocabulary {
  const image = imageOptionTest(v.imageOptions);
  const switches = [...new Set(v.switches)].filter((s) => s.length > 0);
  return {
    namespacePrefix: namespacePattern(v.namespaces),
    imageOption: image.test,
    widthToken: image.width,
    switches: switches.length === 0 ? undefined : new RegExp(switches.map(escape).join('|'), 'i'),
  };
}

/** The kinds of markup left in `s` (MARKUP_KINDS; `switch` needs the wiki's words). */
export function markupIn(s: string, v: CompiledVocabulary | undefined): MarkupKind[] {
  const kinds: MarkupKind[] = [];
  for (const [kind, re] of FIXED) if (re.test(s)) kinds.push(kind);
  if (hasEntity(s)) kinds.push('entity');
  if (v?.switches?.test(s) === true || /__[A-Z]{3,}__/.test(s)) kinds.push('switch');
  return kinds;
}

/** Whether `s` holds a "File:"/"Category:"/"Template:"/"Media:" prefix of the wiki (any of its names). */
export function hasNamespacePrefix(s: string, v: CompiledVocabulary): boolean {
  return v.namespacePrefix.test(s);
}

/**
 * Whether `s` shows image options as text: a `|`-separated segment (trimmed) of a string holding
 * `|` that is an image option of the wiki, or anywhere a whitespace-delimited width ("250px",
 * "250ピクセル", "354x354փքս").
 */
export function hasImageOption(s: string, v: CompiledVocabulary): boolean {
  if (s.includes('|')) for (const segment of s.split('|')) if (v.imageOption(segment.trim())) return true;
  return v.widthToken?.test(s) === true;
}

/**
 * A unit written with a superscript square or cube but read without the caret the HTML door puts
 * before a numeric superscript: "km2", "m3" after a non-letter ("357,021 km2", "hab/km2").
 */
export const UNCARETED_UNIT = /(?<!\p{L})(?:km|cm|mm|mi|ft|m)[23](?![\p{L}\p{N}])/u;

/**
 * Presentational infobox parameters, which describe how the box looks, never what the article
 * says: sizes and widths, images and their alt text and captions, coordinate parts, styles and
 * classes. By name (lower case, `_`/`-`/space as one): a name ending in size/width/upright/style/
 * class/caption or in the word alt, starting with image/img, or a coordinate part (latd, long_deg, lat_NS,
 * coordinates_display …). By value: a file name (…​.jpg/.png/.svg/.gif/.tif/.webp) or a size
 * ("125px", "250x200px").
 */
export function isPresentationalField(name: string, value: string | undefined): boolean {
  const n = name.toLowerCase().replace(/[\s_-]+/g, '_').trim();
  if (/(size|width|upright|style|class|caption)$/.test(n) || /(^|_)alt$/.test(n)) return true;
  if (/^(image|img)/.test(n)) return true;
  if (/^(lat|long?)_?(d|m|s|ns|ew|deg|min|sec|dir|degrees|minutes|seconds|direction)$/.test(n)) return true;
  if (/^coor(dinates?)?_(display|type|region|format|pinpoint|notes?|title)$/.test(n)) return true;
  const v = (value ?? '').trim();
  if (/^[^|\n]{1,200}\.(jpe?g|png|svg|gif|tiff?|webp)$/i.test(v)) return true;
  if (/^[0-9]*x?[0-9]+\s*px$/i.test(v)) return true;
  return false;
}

/** Where in the Article a text string sits (for the report's examples). */
export type TextPlace = 'abstract' | 'description' | 'heading' | 'paragraph' | 'list' | 'image' | 'infobox' | 'field-name' | 'field' | 'table' | 'reference' | 'metadata' | 'link' | 'citation';

export interface TextString {
  place: TextPlace;
  text: string;
}

/** URL-valued metadata (CS1 `url`, `archive-url`, `chapter-url` …): addresses, not text. */
const URL_KEY = /(^|-)url$/;

/**
 * Every text value of an Article a reader sees: the abstract and description, every part's name
 * and value (a formula's TeX excepted), link texts, image captions and alt texts, citation
 * markers, table cells, reference texts and sources, and reference metadata values (URLs
 * excepted). Not: identifiers, URLs, types, and `Reference.template`, which keeps the
 * parameters as written by contract.
 */
export function textStrings(a: Article): TextString[] {
  const out: TextString[] = [];
  const add = (place: TextPlace, text: string | undefined): void => {
    if (text !== undefined && text.length > 0) out.push({ place, text });
  };
  const links = (ls: readonly Link[] | undefined): void => {
    for (const l of ls ?? []) {
      add('link', l.text);
      images(l.images);
    }
  };
  const images = (is: readonly Image[] | undefined): void => {
    for (const i of is ?? []) {
      add('image', i.caption);
      add('image', i.alternative_text);
    }
  };
  const cells = (rows: readonly (readonly TableCell[])[] | undefined): void => {
    for (const row of rows ?? []) {
      for (const c of row) {
        add('table', c.value);
        links(c.links);
        for (const ct of c.citations ?? []) add('citation', ct.text);
      }
    }
  };
  const parts = (ps: readonly Part[] | undefined, inInfobox: boolean): void => {
    for (const p of ps ?? []) {
      const box = inInfobox || p.type === 'infobox';
      if (p.type === 'field') add('field-name', p.name);
      else if (p.type === 'section') add(box ? 'infobox' : 'heading', p.name === 'abstract' ? undefined : p.name);
      else add(box ? 'infobox' : 'heading', p.name);
      if (p.type !== 'formula') {
        const place: TextPlace = box ? (p.type === 'field' ? 'field' : 'infobox') : p.type === 'list_item' ? 'list' : p.type === 'image' ? 'image' : 'paragraph';
        add(place, p.value);
      }
      links(p.links);
      images(p.images);
      for (const c of p.citations ?? []) add('citation', c.text);
      parts(p.has_parts, box);
    }
  };
  add('abstract', a.abstract);
  add('description', a.description);
  images(a.image === undefined ? undefined : [a.image]);
  parts(a.sections, false);
  parts(a.infoboxes, true);
  for (const t of a.tables) {
    cells(t.headers);
    cells(t.rows);
    cells(t.footers);
  }
  for (const r of a.references) referenceStrings(r, add, links);
  return out;
}

function referenceStrings(r: Reference, add: (place: TextPlace, text: string | undefined) => void, links: (ls: readonly Link[] | undefined) => void): void {
  add('reference', r.text.value);
  links(r.text.links);
  if (r.source !== undefined) {
    add('reference', r.source.value);
    links(r.source.links);
  }
  for (const [key, value] of Object.entries(r.metadata)) if (!URL_KEY.test(key)) add('metadata', value);
}
