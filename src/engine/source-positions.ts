/**
 * Source hints: `parse(html, { sourcePositions: true })` says, on each Part the block walker makes
 * (sections, paragraphs, lists, images, tables, infoboxes), which element of the input produced
 * it. Tools that show a Part beside its source use it (the explorer highlights the one under the
 * pointer in the other pane). Off by default: the hint is not part of the Article contract
 * (src/schema/article.ts), and numbering the elements is one more walk over the tree.
 *
 * An element is named by its position in document order among all elements of the tree that
 * `parseHtml` builds from the input's HTML (`article_body.html` for an envelope), counting from
 * 0. Anyone who builds that tree from the same HTML (the explorer bundles the same builder)
 * finds the element again by counting; no offsets are needed, so the tree builder is untouched.
 */
import type { Part } from '../schema/article.js';
import type { AnyNode, Document, Element, ParentNode } from './dom.js';
import { childNodes, forEachElement, isElement, parentOf, tagName } from './dom.js';

export interface SourceHint {
  /** The element's index in document order among all elements (0-based). */
  element: number;
  /** Its tag name, so a reader can tell when it counted a different tree. */
  tag: string;
}

/** A Part as `parse` returns it with `sourcePositions`. */
export type SourcedPart = Part & { source?: SourceHint | undefined; has_parts?: SourcedPart[] | undefined };

/** Each element's index in document order (forEachElement's walk: iterative, so no document depth reaches the stack). */
export function elementOrder(root: ParentNode): Map<Element, number> {
  const order = new Map<Element, number>();
  forEachElement(root, (el) => order.set(el, order.size));
  return order;
}

/** Sets `part.source` to the element that produced it. */
export type SourceMarker = (part: Part, el: Element) => void;

export function sourceMarker(doc: Document): SourceMarker {
  const order = elementOrder(doc);
  return (part, el) => {
    const element = order.get(el);
    if (element !== undefined) (part as SourcedPart).source = { element, tag: tagName(el) };
  };
}

/**
 * The element standing for an implicit paragraph (a run of inline nodes with no element of its
 * own): the parent when the run is all of it (a `<div>` of bare text and links), else the run's
 * first element; undefined for bare text among other blocks.
 */
export function runElement(nodes: readonly AnyNode[]): Element | undefined {
  const parent = nodes.length > 0 ? parentOf(nodes[0]!) : undefined;
  if (parent !== null && parent !== undefined && isElement(parent)) {
    const kids = childNodes(parent);
    if (kids.length === nodes.length && kids.every((c, i) => c === nodes[i])) return parent;
  }
  return nodes.find(isElement);
}
