/** Reference ids are HTML ids and should be unique; on broken pages the first entry wins. */
export function uniqueReferences(references: readonly Reference[]): Reference[] {
  const seen = new Set<string>();
  return references.filter((r) => !seen.has(r.identifier) && seen.add(r.identifier) !== undefined);
}

/**
 * Keeps only citations that point at a reference of this article, so every citation resolves to
 * exactly one Reference. A marker whose list entry is missing (a broken or truncated page) is
 * dropped rather than left dangling.
 */
import type { Part, Reference } from '../../schema/article.js';

export function resolveCitations(trees: readonly (readonly Part[])[], references: readonly Reference[]): void {
  const known = new Set(references.map((r) => r.identifier));
  const stack: Part[] = trees.flatMap((t) => [...t]);
  while (stack.length > 0) {
    const part = stack.pop()!;
    if (part.citations !== undefined) {
      const kept = part.citations.filter((c) => known.has(c.identifier));
      if (kept.length > 0) part.citations = kept;
      else delete part.citations;
    }
    if (part.has_parts !== undefined) for (const child of part.has_parts) stack.push(child);
  }
}
