/**
 * The HTML front door: turns the article body into the section tree and the rest of `Extracted`.
 * One walk over the content in document order (walk/walker.ts) tries the rules of a preset
 * (walk/preset.ts) on each element; headings open sections by level (h2–h6), which reproduces
 * Parsoid's `<section data-mw-section-id>` nesting and gives the same tree for skin-rendered pages
 * whose headings are flat siblings. Content before the first heading is the lead, named "abstract".
 */
import type { Element } from './dom.js';
import type { Context } from './context.js';
import type { Extracted } from './extracted.js';
import { Collector } from './collector.js';
import { HTML_PRESET } from './walk/preset.js';
import type { Rule } from './walk/types.js';
import { Walker } from './walk/walker.js';

export { LEAD_NAME } from './section-tree.js';

/** What the walk of `content` under `rules` (the HTML preset unless given) extracts. */
export function extract(content: Element, ctx: Context, rules: readonly Rule[] = HTML_PRESET): Extracted {
  const out = new Collector();
  const walker = new Walker(ctx, out, rules);
  walker.children(content, 0);
  return out.extracted(walker.tree.sections, ctx);
}
