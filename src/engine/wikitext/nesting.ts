/**
 * Keeps the syntax passes' work linear in the length of the wikitext they are handed.
 *
 * The passes (./syntax) are wikiparser-node's stages ported with their patterns and their
 * text-rewriting design, so "the library" below is also what our passes do. The library is superlinear in three places (each measured at 4× the input: 12–16× the CPU time,
 * where linear is 4×; test/wikitext/nesting.test.ts):
 *
 * 1. Extension tags (`parseCommentAndExt`: one regex `<(ref|…)(\s[^>]*?)?(?:/>|>([\s\S]*?)</\1\s*>)`).
 *    From an opening tag with no closing tag after it, the lazy `[\s\S]*?` runs to the end of the
 *    text before the match fails; the next opening does it again. 500 KB of unclosed `<ref>` took
 *    9 s, 800 KB 23 s. Attributes that never meet `>` do the same through `[^>]*?`, and nested tags
 *    of one name too: in `<ref><ref>…</ref></ref>` the first `</ref>` ends the outer tag, inside
 *    which every other opening is unclosed. (MediaWiki's preprocessor remembers, per tag name, that
 *    no closing tag follows — `$noMoreClosingTag` — the library does not.)
 * 2. External links (`parseExternalLinks`): from `[http://…` whose text never meets `]`, the
 *    text part runs to the end of its line; the next opening again.
 * 3. Headings and `{{{…}}}` (`parseBraces`), and language conversions `-{…}-` (`parseConverter`):
 *    each one the library closes rewrites the whole text (`text = before + placeholder + after`),
 *    which the next regex search copies flat: the cost is their number × the length. Nested `-{`
 *    also cost one more pass of the bracket regex each. Real articles have up to 90 headings and
 *    35 conversions (corpus).
 *
 * The guard bounds all three without changing what the passes build (they stay node for node the
 * library's, test/wikitext/syntax/oracle.test.ts), from one pass over the text:
 *
 * - for 1 and 2 it adds up the characters those scans can pass over (from each opening to its
 *   first `>`, its first closing tag or the end; from each `[protocol` to the first `]` or line
 *   end). Over `scanPerByte` × length + `scanFloor` (GUARD_LIMITS), the page is not handed to the
 *   parser at all and is read as plain text (the fallback of wikitext/index.ts), as for nesting
 *   deeper than tree.ts's MAX_NESTING. Real articles scan under 1× their length (0.65 at most);
 * - for 3 it counts the headings, triple braces and `-{`. Over `wholeEvents`, the text is parsed in
 *   pieces cut before top-level headings (outside every `{{`, `[[`, `{|`, `-{`, comment and
 *   extension tag), each with at most `pieceEvents`, and the pieces' top-level nodes joined under
 *   the first piece's root: a heading at the top level ends what precedes it, as in MediaWiki's
 *   sections. When no cut keeps a piece that small, plain text again.
 *
 * Nesting of `{{`, `[[` and `{|` stays tree.ts's own guard (each level costs one more pass and
 * recursion); nesting of HTML tags and list markers is linear in the library and bounded
 * downstream (the block walker caps list depth): test/wikitext/nesting.test.ts checks each of
 * these with the same CPU-ratio test.
 */
import type { AstNodes, Token } from './syntax/types.js';
import enwiki from 'wikiparser-node/config/enwiki.json' with { type: 'json' };

export interface GuardLimits {
  /** Characters the unclosed-tag and unclosed-link scans may pass over, per character of input… */
  scanPerByte: number;
  /** …plus this many, so that short pages with a few stray tags are never refused. */
  scanFloor: number;
  /** Headings, `{{{` and `-{` the library may rewrite the whole text for, before the text is cut. */
  wholeEvents: number;
  /** At most this many in one piece once it is cut. */
  pieceEvents: number;
}

/**
 * At 64 characters scanned per byte the library spends well under a second on the scans of an
 * 8 MiB page (about 0.25 ns a character); real articles scan under 1× their length. 256 rewrites
 * is nearly 3× the corpus's most (90 headings; 35 conversions on another page); 64 per piece keeps
 * the rewrites of a cut page near 64 × its length, about 0.1 µs a byte.
 */
export const GUARD_LIMITS: Readonly<GuardLimits> = { scanPerByte: 64, scanFloor: 1 << 24, wholeEvents: 256, pieceEvents: 64 };

/**
 * Extension tags whose content runs to a closing tag (the configuration tree.ts gives the library
 * is enwiki's plus namespace aliases: the same tag list) and the three inclusion tags, whose
 * attributes the library scans the same way.
 */
const EXTENSION_TAGS: readonly string[] = enwiki.ext;
const INCLUSION_TAGS = ['includeonly', 'noinclude', 'onlyinclude'];
const TAG_NAMES = [...EXTENSION_TAGS, ...INCLUSION_TAGS].sort((a, b) => b.length - a.length);
const OPENING_SOURCE = `<(${TAG_NAMES.join('|')})(?=\\s|/>|>)`;
const OPENING = new RegExp(OPENING_SOURCE, 'giu');
/** The same, only at a given position (sticky): a search that must not run ahead. */
const OPENING_AT = new RegExp(OPENING_SOURCE, 'iuy');
const EXTENSION = new Set(EXTENSION_TAGS);
/** `[` and a URL protocol (the library's list) or `//`: where an external link may start. */
const LINK_OPENING = new RegExp(`\\[(?:${enwiki.protocol}|//)`, 'giu');
/** Where the text of an external link stops: its `]`, or what it may not hold (line breaks, controls). */
const LINK_STOP = /[\]\x01-\x08\x0A-\x1F\uFFFD]/gu;
/** A heading line as the library's bracket loop sees it (comments before it are placeholders there). */
const HEADING = /^(?:<!--[^\n]*?-->)*=[^\n]*=/gmu;
const HEADING_AT = /=[^\n]*=/uy;
const TRIPLE_BRACES = /\{{3,}/gu;
const CONVERSION = /-\{/gu;

/** What the pre-scan found: how much the library would scan, and where the bracket loop rewrites. */
export interface ParserWork {
  /** Characters the unclosed-tag and unclosed-link scans may pass over (an upper bound). */
  scanned: number;
  /** Start of each heading line, `{{{` run and `-{`: each the place of one (or more) rewrites, in order. */
  events: number[];
}

/** One pass (per regex) over the text; linear whatever it holds. */
export function parserWork(text: string): ParserWork {
  return { scanned: tagScans(text) + linkScans(text), events: braceEvents(text) };
}

/**
 * The parsed tree, or undefined when the page is read as plain text instead (see above). `parse`
 * is the library's parse of a whole text.
 */
export function guardedParse(text: string, parse: (text: string) => Token, limits: Readonly<GuardLimits> = GUARD_LIMITS): Token | undefined {
  const work = parserWork(text);
  if (work.scanned > limits.scanPerByte * text.length + limits.scanFloor) return undefined;
  if (work.events.length <= limits.wholeEvents) return parse(text);
  const cuts = pieceCuts(text, work.events, limits.pieceEvents);
  if (cuts === undefined) return undefined;
  let root: Token | undefined;
  let start = 0;
  for (const end of [...cuts, text.length]) {
    const piece = parse(text.slice(start, end));
    if (root === undefined) root = piece;
    else adopt(root, piece);
    start = end;
  }
  return root;
}

/** Moves `from`'s top-level nodes to the end of `to`. */
function adopt(to: Token, from: Token): void {
  const nodes = from.childNodes;
  from.childNodes = [];
  to.appendAll(nodes);
}

/**
 * For each tag opening: its attributes up to the first `>` after it; then, unless it closes
 * itself (`/>`) or is an inclusion tag, its content up to the first closing tag of its name after
 * that. The first `>` and each name's next closing tag move forward only, so every character is
 * searched once per tag name: linear. Counting nested openings in full over-estimates the
 * library's scan (which stops at the enclosing tag's end), never under-estimates it.
 */
function tagScans(text: string): number {
  let scanned = 0;
  let gt = -1;
  const closing = new Map<string, { re: RegExp; at: number }>();
  OPENING.lastIndex = 0;
  for (let m = OPENING.exec(text); m !== null; m = OPENING.exec(text)) {
    const p = m.index;
    if (gt < p) {
      gt = text.indexOf('>', p);
      if (gt === -1) gt = text.length;
    }
    scanned += gt - p;
    const name = m[1]!.toLowerCase();
    if (!EXTENSION.has(name) || gt === text.length || text.charCodeAt(gt - 1) === 47 /* / */) continue;
    let next = closing.get(name);
    if (next === undefined) {
      next = { re: new RegExp(`</${name}\\s*>`, 'giu'), at: -1 };
      closing.set(name, next);
    }
    if (next.at !== text.length && next.at < gt) {
      next.re.lastIndex = gt;
      next.at = next.re.exec(text)?.index ?? text.length;
    }
    scanned += next.at - gt;
  }
  return scanned;
}

/** For each `[protocol`: up to the first `]`, line break or control character after it. */
function linkScans(text: string): number {
  let scanned = 0;
  let stop = -1;
  LINK_OPENING.lastIndex = 0;
  for (let m = LINK_OPENING.exec(text); m !== null; m = LINK_OPENING.exec(text)) {
    if (stop < m.index) {
      LINK_STOP.lastIndex = m.index;
      stop = LINK_STOP.exec(text)?.index ?? text.length;
    }
    scanned += stop - m.index;
  }
  return scanned;
}

function braceEvents(text: string): number[] {
  const events: number[] = [];
  for (const re of [HEADING, TRIPLE_BRACES, CONVERSION]) for (const m of text.matchAll(re)) events.push(m.index);
  return events.sort((a, b) => a - b);
}

/**
 * Where to cut so that each piece holds at most `most` events: before top-level heading
 * lines, as late as possible each time. Undefined when the events between two possible cuts are
 * already too many.
 */
function pieceCuts(text: string, events: readonly number[], most: number): number[] | undefined {
  const candidates = topLevelHeadings(text);
  const cuts: number[] = [];
  let start = 0; // index into events of the current piece's first event
  let last = 0; // the latest candidate cut so far, and index of the first event at or after it
  let lastEvent = 0;
  let e = 0;
  for (const cut of [...candidates, text.length]) {
    while (e < events.length && events[e]! < cut) e++;
    if (e - start > most) {
      // The piece up to this candidate is too big: end it at the previous candidate.
      if (last === 0 || lastEvent === start || e - lastEvent > most) return undefined;
      cuts.push(last);
      start = lastEvent;
    }
    last = cut;
    lastEvent = e;
  }
  return cuts;
}

/**
 * Starts of heading lines outside every bracket pair, comment and extension tag: one forward scan
 * keeping a depth count, as tree.ts's nestingDepth does, that jumps over comments and over
 * extension tags that have a closing tag.
 */
export function topLevelHeadings(text: string): number[] {
  const out: number[] = [];
  const closing = new Map<string, number>();
  let gt = -1; // the first `>` at or after the last tag opening met: moves forward only
  let depth = 0;
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (lineStart && depth === 0 && c === 61 /* = */) {
      HEADING_AT.lastIndex = i;
      if (i > 0 && HEADING_AT.test(text)) out.push(i);
    }
    lineStart = c === 10;
    const d = text.charCodeAt(i + 1);
    if (c === 60 /* < */) {
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        if (end === -1) break;
        i = end + 2;
        continue;
      }
      OPENING_AT.lastIndex = i;
      const m = OPENING_AT.exec(text);
      if (m !== null && EXTENSION.has(m[1]!.toLowerCase())) {
        if (gt < i) {
          gt = text.indexOf('>', i);
          if (gt === -1) gt = text.length; // no tag can end any more: it is text
        }
        if (gt === text.length) continue;
        if (text.charCodeAt(gt - 1) === 47 /* / */) {
          i = gt; // closes itself
          continue;
        }
        const end = closingAfter(text, m[1]!.toLowerCase(), gt, closing);
        if (end !== -1) i = end - 1;
      }
    } else if ((c === 123 && (d === 123 || d === 124)) || (c === 91 && d === 91) || (c === 45 && d === 123)) {
      depth++;
      i++;
    } else if ((c === 125 && (d === 125 || d === 45)) || (c === 93 && d === 93) || (c === 124 && d === 125)) {
      if (depth > 0) depth--;
      i++;
    }
  }
  return out;
}

/** End of the first `</name>` after `from`, or -1; remembers where none is left, per name. */
function closingAfter(text: string, name: string, from: number, memo: Map<string, number>): number {
  const known = memo.get(name);
  if (known === -1 || (known !== undefined && known > from)) return known!;
  const re = new RegExp(`</${name}\\s*>`, 'giu');
  re.lastIndex = from;
  const m = re.exec(text);
  const end = m === null ? -1 : m.index + m[0].length;
  memo.set(name, end);
  return end;
}
