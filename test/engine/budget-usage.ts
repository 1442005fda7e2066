/**
 * What a parse charges to its work budget (src/engine/budget.ts), recomputed from what the front
 * door extracted: the tables' grid slots (what span expansion and padding charge; overlapping
 * spans are charged twice there, so this is a lower bound for them) and the walk over the parts.
 * Shared by the corpus test and the measurement script that chose the limits.
 */
import type { Extracted } from '../../src/engine/extracted.js';
import type { WorkLimit } from '../../src/engine/budget.js';
import type { Part } from '../../src/index.js';

export function usageOf(x: Extracted): Record<WorkLimit, number> {
  const use: Record<WorkLimit, number> = { cells: 0, cellText: 0, parts: 0, links: 0, citations: 0, references: x.references.length, depth: 0 };
  for (const t of x.tables) {
    for (const rows of [t.headers, t.rows, t.footers ?? []]) {
      for (const row of rows) {
        for (const c of row) {
          use.cells++;
          use.cellText += c.value.length;
          use.links += c.links?.length ?? 0;
          use.citations += c.citations?.length ?? 0;
        }
      }
    }
  }
  const stack: [Part, number][] = [];
  for (const p of x.sections) stack.push([p, 1]);
  for (const p of x.infoboxes) stack.push([p, 1]);
  while (stack.length > 0) {
    const [p, d] = stack.pop()!;
    use.parts++;
    use.depth = Math.max(use.depth, d);
    use.links += p.links?.length ?? 0;
    use.citations += p.citations?.length ?? 0;
    for (const c of p.has_parts ?? []) stack.push([c, d + 1]);
  }
  return use;
}
