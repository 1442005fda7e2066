/**
 * The handles every rule holds (`Element`, `Text`, `Document`…): opaque numbers, read only
 * through dom.ts's accessors (`tagName`, `attr`, `childNodes`, `parentOf`, `textOf`), never
 * directly. Each names one node of one parsed page; tree-store.ts keeps the pages, as typed
 * arrays outside the JavaScript heap (docs/batch.md point (11) says why).
 *
 * A module of its own so that the tree builder, which makes the nodes, and dom.ts, which parses
 * with it and reads them, do not import each other.
 */
import type { Link } from '../schema/article.js';

declare const handle: unique symbol;

/** An element (`<script>` and `<style>` included). */
export type Element = number & { readonly [handle]: 'element' };
export type Text = number & { readonly [handle]: 'text' };
/** A comment, or CDATA outside foreign content. */
export type Comment = number & { readonly [handle]: 'comment' };
/** `<!doctype …>`. */
export type Directive = number & { readonly [handle]: 'directive' };
/** The root of a parsed page. */
export type Document = number & { readonly [handle]: 'document' };

export type ParentNode = Document | Element;
export type ChildNode = Element | Text | Comment | Directive;
export type AnyNode = ParentNode | ChildNode;

/**
 * The children of a node, as dom.ts's `childNodes` hands them out: read-only, indexed, iterable,
 * searched in place. No `map`, `filter` or `slice`, and not an array (`Array.isArray` is false
 * for the typed-array views of point (11)): `Array.from(list)` makes one where an array is needed.
 */
export interface NodeList extends Iterable<ChildNode> {
  readonly length: number;
  readonly [index: number]: ChildNode;
  some(predicate: (node: ChildNode, index: number) => unknown): boolean;
  every(predicate: (node: ChildNode, index: number) => unknown): boolean;
  find<S extends ChildNode>(predicate: (node: ChildNode, index: number) => node is S): S | undefined;
  find(predicate: (node: ChildNode, index: number) => unknown): ChildNode | undefined;
  findIndex(predicate: (node: ChildNode, index: number) => unknown): number;
  indexOf(node: ChildNode): number;
  includes(node: ChildNode): boolean;
}

/** What reference/html.ts indexes once per document (dom.ts referenceIndexes). */
export interface ReferenceIndexes {
  /** The `CITEREF…` anchors short footnotes link to, by id; undefined until asked for. */
  anchors: Map<string, Element> | undefined;
  /** The text of each full citation short footnotes point at, read once, and the context it was read in. */
  readonly sourceTexts: Map<Element, { readonly ctx: object; readonly text: { value: string; links: Link[] } }>;
  /** How many in-text marker searches the document's lists made (each walks the document). */
  markerSearches: number;
}
