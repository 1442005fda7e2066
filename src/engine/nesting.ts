/**
 * A guard against pathologically deep markup. htmlparser2 keeps its open-element stack with
 * `unshift`/`shift`, so its time grows with the square of the nesting depth: 100,000 nested
 * `<span>`s take tens of seconds, a denial of service for the HTTP API. No real article nests more
 * than a few hundred elements, so one linear scan finds the depth, and only input deeper than
 * MAX_NESTING is rewritten: tags beyond that depth are dropped and their text kept, which is what
 * the engine's own depth cap (context.ts MAX_DEPTH) would make of them anyway.
 */

/** Far above any real article (the corpus peaks below 100) and far below the quadratic cliff. */
export const MAX_NESTING = 2000;

/**
 * Elements that build no depth in htmlparser2: void elements are never pushed on its stack, and
 * these are closed by a sibling of their own kind (its `openImpliesClose` table), so a run of
 * unclosed `<p>`, `<li>` or `<td>` is a run of siblings.
 */
const FLAT = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'param',
  'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'tbody', 'option', 'rt', 'rp',
]);
/** Elements whose content is raw text: a `<` inside them starts no tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noscript']);
/**
 * How far below the top an end tag looks for its element. The parser closes everything above a
 * match, as this does; an end tag with no match this close is treated as stray and ignored, which
 * can only overstate the depth — the safe direction for a guard.
 */
const END_TAG_REACH = 64;

/** Called for every start and end tag of a depth-building element, with the depth it sits at. */
type Visit = (start: number, end: number, depth: number) => void;

/**
 * Mirrors htmlparser2's open-element stack in one linear pass and returns the deepest nesting.
 * Comments, doctypes and raw-text bodies are skipped whole; quoted attribute values may hold `>`.
 */
function scan(html: string, visit: Visit | undefined): number {
  const open: string[] = [];
  let max = 0;
  let at = html.indexOf('<');
  while (at >= 0 && at < html.length - 1) {
    const next = html.charCodeAt(at + 1);
    if (next === 33 /* ! */ || next === 63 /* ? */) {
      const close = html.startsWith('<!--', at) ? html.indexOf('-->', at + 4) : html.indexOf('>', at + 2);
      if (close < 0) break;
      at = html.indexOf('<', close + 1);
      continue;
    }
    const closing = next === 47; /* / */
    const nameStart = closing ? at + 2 : at + 1;
    let nameEnd = nameStart;
    while (nameEnd < html.length && isNameChar(html.charCodeAt(nameEnd))) nameEnd++;
    if (nameEnd === nameStart || !isLetter(html.charCodeAt(nameStart))) {
      at = html.indexOf('<', at + 1);
      continue;
    }
    const end = tagEnd(html, nameEnd);
    if (end < 0) break;
    const name = html.slice(nameStart, nameEnd).toLowerCase();
    if (closing) {
      const match = FLAT.has(name) ? -1 : openIndex(open, name);
      if (match >= 0) {
        visit?.(at, end + 1, match + 1);
        open.length = match;
      }
    } else if (!FLAT.has(name) && html.charCodeAt(end - 1) !== 47 /* not <x/> */) {
      open.push(name);
      if (open.length > max) max = open.length;
      visit?.(at, end + 1, open.length);
    }
    if (!closing && RAW_TEXT.has(name)) {
      const close = html.indexOf(`</${name}`, end + 1);
      if (close < 0) break;
      at = close;
      continue;
    }
    at = html.indexOf('<', end + 1);
  }
  return max;
}

/** Where `name` is open, searching down from the top at most END_TAG_REACH entries; -1 if not. */
function openIndex(open: readonly string[], name: string): number {
  const floor = Math.max(0, open.length - END_TAG_REACH);
  for (let i = open.length - 1; i >= floor; i--) if (open[i] === name) return i;
  return -1;
}

/** Index of the `>` that ends a tag, skipping quoted attribute values; -1 when unterminated. */
function tagEnd(html: string, from: number): number {
  let i = from;
  while (i < html.length) {
    const c = html.charCodeAt(i);
    if (c === 62 /* > */) return i;
    if (c === 34 /* " */ || c === 39 /* ' */) {
      const close = html.indexOf(c === 34 ? '"' : "'", i + 1);
      if (close < 0) return -1;
      i = close + 1;
    } else i++;
  }
  return -1;
}

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

function isNameChar(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 57) || c === 45 || c === 58 || c === 95;
}

/** The deepest nesting of depth-building elements, as htmlparser2 would stack them. */
export function nestingDepth(html: string): number {
  return scan(html, undefined);
}

/**
 * `html` itself when it nests at most `max` deep (the common case: one scan, no allocation);
 * otherwise a copy without the start and end tags that lie deeper than `max`.
 */
export function flattenDeepNesting(html: string, max = MAX_NESTING): string {
  if (nestingDepth(html) <= max) return html;
  const kept: string[] = [];
  let from = 0;
  scan(html, (start, end, depth) => {
    if (depth <= max) return;
    kept.push(html.slice(from, start));
    from = end;
  });
  kept.push(html.slice(from));
  return kept.join('');
}
