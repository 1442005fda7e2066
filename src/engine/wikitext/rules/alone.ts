/** Whether a top-level node is alone on its line of the page, with nothing but spaces beside it. */
import type { AstNodes } from '../syntax/types.js';

export function aloneOnLine(n: AstNodes): boolean {
  if (n.parentNode?.type !== 'root') return false;
  const prev = n.previousSibling;
  const next = n.nextSibling;
  const before = prev === undefined || (prev.type === 'text' && /(?:^|\n)[^\S\n]*$/.test(prev.data) && (prev.data.includes('\n') || prev.previousSibling === undefined));
  const after = next === undefined || (next.type === 'text' && /^[^\S\n]*(?:\n|$)/.test(next.data) && (next.data.includes('\n') || next.nextSibling === undefined));
  return before && after;
}
