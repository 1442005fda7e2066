/** The source hints of an Article's Parts (engine/source-positions.ts): element index → tag. */
import type { Article } from '../../schema/article.js';
import type { SourcedPart } from '../../engine/source-positions.js';

export function hintsOf(article: Article): Map<number, string> {
  const hints = new Map<number, string>();
  const stack: SourcedPart[] = [...article.sections, ...article.infoboxes];
  while (stack.length > 0) {
    const part = stack.pop()!;
    if (part.source !== undefined) hints.set(part.source.element, part.source.tag);
    if (part.has_parts !== undefined) for (const child of part.has_parts) stack.push(child);
  }
  return hints;
}
