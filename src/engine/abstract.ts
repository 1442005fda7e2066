/**
 * The abstract: the lead's paragraphs as plain text, without pronunciation guides. A guide is
 * cut together with the parenthesis that holds it, the way the wiki's own page previews do:
 * "Albert Einstein (/ˈaɪnstaɪn/; 14 March 1879 – 18 April 1955) was" → "Albert Einstein was".
 */
import type { AnyNode, Element } from './dom.js';
import type { Context } from './context.js';
import { CUT, clean, inline } from './inline.js';

export function buildAbstract(paragraphs: readonly (Element | AnyNode[])[], ctx: Context): string | undefined {
  const texts: string[] = [];
  for (const p of paragraphs) {
    const text = removeCutParentheses(inline(p, ctx, { abstract: true }).value);
    if (text.length > 0) texts.push(text);
  }
  return texts.length > 0 ? texts.join('\n') : undefined;
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
