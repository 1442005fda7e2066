/**
 * Pronunciation guides are cut out of abstract text: the renderers write CUT where a guide was, and
 * `removeCutParentheses` removes it together with the parenthesis that holds it, the way the
 * wiki's own page previews do: "Albert Einstein (/ˈaɪnstaɪn/; 14 March 1879 – 18 April 1955) was"
 * → "Albert Einstein was". A guide the wiki wraps in brackets or slashes of its own, outside the
 * element the grammar recognises ("[<span class="IPA">…</span>]", "/<span class="IPA">…</span>/"),
 * leaves "[]" or "//" behind unless those go with it: such a pair holding nothing but marks,
 * spaces, commas and semicolons counts as one mark.
 */
import { clean, isJsSpace } from './text.js';

/** Marks where a pronunciation guide was cut out of abstract text. */
export const CUT = '\u0001';

/**
 * Removes every parenthesised group that contains a CUT mark (the innermost enclosing pair, with
 * its nesting respected), then any stray marks, then tidies the spaces and punctuation left behind.
 * A mark inside an opening parenthesis that is never closed goes alone, as does a mark outside any.
 *
 * One pass with a stack: the unclosed '(' kept so far are stacked with the number of output pieces
 * before each, so cutting a group drops pieces instead of re-slicing the text; a lead with
 * thousands of guides stays linear (re-slicing per mark took 13.5 s on a 1 MB lead).
 */
export function removeCutParentheses(input: string): string {
  if (!input.includes(CUT)) return input;
  const text = collapseGuideBrackets(input);
  const closeAfter = firstUnmatchedCloses(text);
  const pieces: string[] = [];
  const opens: number[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === OPEN) {
      pieces.push(text.slice(start, i));
      opens.push(pieces.length);
      start = i;
    } else if (c === CLOSE) {
      opens.pop();
    } else if (c === CUT_CODE) {
      const close = opens.length > 0 ? closeAfter.get(i) ?? -1 : -1;
      if (close >= 0) {
        // Everything from the innermost open '(' to its ')' goes, other marks inside included.
        pieces.length = opens.pop()!;
        start = close + 1;
        i = close;
      } else {
        pieces.push(text.slice(start, i));
        start = i + 1;
      }
    }
  }
  pieces.push(text.slice(start));
  const rest = pieces.join('').replace(EMPTY_PARENTHESES, '').replace(EMPTY_BRACKETS, '');
  return clean(rest.replace(/\s+([,;])/g, '$1'));
}

/**
 * Replaces each '[' … ']' or '/' … '/' holding nothing but marks (at least one), spaces, commas
 * and semicolons by one mark; a pair that holds only such pairs goes too ("/ [mark] /"). At a
 * closing character the pair exists exactly when the last character kept that is not filler is
 * its opening one, so one pass with a stack of the positions of those characters does it: each
 * position is pushed once and dropped once (linear; re-running a regex until nothing changes
 * would be quadratic in the nesting).
 */
function collapseGuideBrackets(text: string): string {
  const out: string[] = [];
  /** Positions in `out` of the characters that are not filler, in order. */
  const solid: number[] = [];
  /** Position in `out` of the last mark, -1 before any. */
  let lastMark = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === CUT) {
      lastMark = out.length;
      out.push(ch);
      continue;
    }
    if (ch === ',' || ch === ';' || isJsSpace(text.charCodeAt(i))) {
      out.push(ch);
      continue;
    }
    const open = solid.length > 0 ? solid[solid.length - 1]! : -1;
    const opener = ch === ']' ? '[' : ch === '/' ? '/' : undefined;
    if (opener !== undefined && open >= 0 && out[open] === opener && lastMark > open) {
      out.length = open;
      solid.pop();
      lastMark = out.length;
      out.push(CUT);
      continue;
    }
    solid.push(out.length);
    out.push(ch);
  }
  return out.join('');
}

/** What a cut can leave: a parenthesis or bracket pair around nothing but a separator. */
const EMPTY_PARENTHESES = /\(\s*[,;]?\s*\)/g;
const EMPTY_BRACKETS = /\[\s*[,;]?\s*\]/g;

const OPEN = 40; // (
const CLOSE = 41; // )
const CUT_CODE = CUT.charCodeAt(0);

/**
 * For each CUT mark, the first ')' after it that closes a '(' opened before it, or -1: read right
 * to left, the ')' not yet matched by a '(' are stacked, and the one nearest the mark is on top.
 * Text after the mark is never changed by cuts before it, so this holds for the text being cut.
 */
function firstUnmatchedCloses(text: string): Map<number, number> {
  const out = new Map<number, number>();
  const closes: number[] = [];
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === CLOSE) closes.push(i);
    else if (c === OPEN) closes.pop();
    else if (c === CUT_CODE) out.set(i, closes.length > 0 ? closes[closes.length - 1]! : -1);
  }
  return out;
}
