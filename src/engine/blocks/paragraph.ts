/** A run of inline content becomes a `paragraph` part, or nothing when it has no text. */
import type { Part } from '../../schema/article.js';
import type { AnyNode, Element } from '../dom.js';
import type { Context } from '../context.js';
import { inline } from '../inline.js';

export function paragraphPart(nodes: Element | readonly AnyNode[], ctx: Context, depth: number): Part | undefined {
  const { value, links, citations } = inline(nodes, ctx, {}, depth);
  if (value.length === 0) return undefined;
  const part: Part = { type: 'paragraph', value };
  if (links.length > 0) part.links = links;
  if (citations.length > 0) part.citations = citations;
  return part;
}
