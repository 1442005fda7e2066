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
 */
export function removeCutParentheses(text: string): string {
  if (!text.includes(CUT)) return text;
  let out = text;
  for (let at = out.indexOf(CUT); at >= 0; at = out.indexOf(CUT)) {
    const open = enclosingOpen(out, at);
    const close = open < 0 ? -1 : matchingClose(out, open);
    if (open >= 0 && close >= 0) out = out.slice(0, open) + out.slice(close + 1);
    else out = out.slice(0, at) + out.slice(at + 1);
  }
  return clean(out.replace(/\(\s*[,;]?\s*\)/g, '').replace(/\s+([,;])/g, '$1'));
}

function enclosingOpen(s: string, from: number): number {
  let depth = 0;
  for (let i = from - 1; i >= 0; i--) {
    const c = s.charCodeAt(i);
    if (c === 41 /* ) */) depth++;
    else if (c === 40 /* ( */) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

function matchingClose(s: string, open: number): number {
  let depth = 0;
  for (let i = open + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 40) depth++;
    else if (c === 41) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}
