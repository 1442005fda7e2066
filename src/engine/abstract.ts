/**
 * The abstract, shared by both front doors: the lead's paragraphs (rendered for the abstract by the
 * front door, pronunciation guides marked) as lines without the guides, and each list in the lead
 * (often what its last sentence introduces: "They occur:") as one "- item" line per item, indented
 * two spaces per nesting level.
 */
import type { Part } from '../schema/article.js';
import { removeCutParentheses } from './cut.js';
import type { LeadLine } from './extracted.js';

export function buildAbstract(lead: readonly LeadLine[]): string | undefined {
  const lines: string[] = [];
  for (const block of lead) {
    if ('list' in block) listLines(block.list, 0, lines);
    else {
      const text = removeCutParentheses(block.text);
      if (text.length > 0) lines.push(text);
    }
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}

function listLines(list: Part, level: number, out: string[]): void {
  for (const item of list.has_parts ?? []) {
    if (item.value !== undefined) out.push(`${'  '.repeat(level)}- ${item.value}`);
    for (const nested of item.has_parts ?? []) listLines(nested, level + 1, out);
  }
}
