/** `<p>`: a paragraph part; in the lead, also a line of the abstract. */
import type { AnyNode, Element } from '../dom.js';
import { paragraphPart } from '../blocks/paragraph.js';
import type { Collector } from './collector.js';
import type { Rule, Walk } from './types.js';

/**
 * A paragraph from an element or a run of inline nodes (the walker's implicit paragraphs), with
 * `source` as its source element; shared so both kinds feed the abstract the same way.
 */
export function paragraphOf(nodes: Element | AnyNode[], source: Element | undefined, walk: Walk, out: Collector, depth: number): void {
  const part = paragraphPart(nodes, walk.ctx, depth);
  if (part === undefined) return;
  if (walk.inAbstract) out.leadParagraph(nodes);
  walk.block(part, source);
}

export const paragraph: Rule = {
  name: 'paragraph',
  breaks: true,
  test: (el) => el.name === 'p',
  run: (el, walk, out, depth) => paragraphOf(el, el, walk, out, depth),
};
