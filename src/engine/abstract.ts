/**
 * The abstract: the lead's paragraphs as plain text, without pronunciation guides. A guide is
 * cut together with the parenthesis that holds it, the way the wiki's own page previews do:
 * "Albert Einstein (/ˈaɪnstaɪn/; 14 March 1879 – 18 April 1955) was" → "Albert Einstein was".
 */
import type { Part } from '../schema/article.js';
import type { Context, LeadBlock } from './context.js';
import type { AnyNode, Element } from './dom.js';
import { isPronunciation } from './rules.js';
import { CUT, clean, inline } from './inline.js';

/**
 * Paragraphs become lines; a list in the lead (often what its last sentence introduces: "They
 * occur:") becomes one "- item" line per item, indented two spaces per nesting level.
 */
export function buildAbstract(lead: readonly LeadBlock[], ctx: Context): string | undefined {
  const lines: string[] = [];
  for (const block of lead) {
    if ('list' in block) listLines(block.list, 0, lines);
    else if (!isExcluded(block.paragraph)) {
      const text = removeCutParentheses(inline(block.paragraph, ctx, { abstract: true }).value);
      if (text.length > 0) lines.push(text);
    }
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/** A whole paragraph the wiki marks as unsuitable for excerpts (e.g. a taxon subtitle). */
function isExcluded(paragraph: Element | AnyNode[]): boolean {
  return !Array.isArray(paragraph) && isPronunciation(paragraph);
}

function listLines(list: Part, level: number, out: string[]): void {
  for (const item of list.has_parts ?? []) {
    if (item.value !== undefined) out.push(`${'  '.repeat(level)}- ${item.value}`);
    for (const nested of item.has_parts ?? []) listLines(nested, level + 1, out);
  }
}

/**
 * Removes every parenthesised group that contains a CUT mark (the innermost enclosing pair, with
 * its nesting respected), then any stray marks, then tidies the spaces and punctuation left behind.
 * A mark inside an opening parenthesis that is never closed goes alone, as does a mark outside any.
 *
 * One pass with a stack: the unclosed '(' kept so far are stacked with the number of output pieces
 * before each, so cutting a group drops pieces instead of re-slicing the text; a lead with
 * thousands of guides stays linear (re-slicing per mark took 13.5 s on a 1 MB lead).
 */
export function removeCutParentheses(text: string): string {
  if (!text.includes(CUT)) return text;
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
  return clean(pieces.join('').replace(/\(\s*[,;]?\s*\)/g, '').replace(/\s+([,;])/g, '$1'));
}

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
