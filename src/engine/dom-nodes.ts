/**
 * The engine's tree, in two layers.
 *
 * - The handles every rule holds (`Element`, `Text`, `Document`…): opaque. A rule reads a node only
 *   through dom.ts's accessors (`tagName`, `attr`, `childNodes`, `parentOf`, `textOf`), never
 *   through fields. That keeps the rules independent of how the builder stores the tree: today as
 *   plain objects, and, the plan of docs/batch.md point (11), as typed arrays outside the
 *   JavaScript heap, which the young-generation collections never copy.
 * - The storage (`ElementNode`, `TextNode`…): plain objects with domhandler's field names, made by
 *   tree-builder.ts and read only by dom.ts.
 *
 * A module of its own so that the tree builder, which makes the nodes, and dom.ts, which parses
 * with it and reads them, do not import each other.
 */
import type { Link } from '../schema/article.js';

declare const handle: unique symbol;

/** An element (`<script>` and `<style>` included). */
export interface Element {
  readonly [handle]: 'element';
}
export interface Text {
  readonly [handle]: 'text';
}
/** A comment, or CDATA outside foreign content. */
export interface Comment {
  readonly [handle]: 'comment';
}
/** `<!doctype …>`. */
export interface Directive {
  readonly [handle]: 'directive';
}
/** The root of a parsed page. */
export interface Document {
  readonly [handle]: 'document';
}

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

interface Links {
  parent: ParentStorage | null;
  prev: ChildStorage | null;
  next: ChildStorage | null;
}

/** `<script>` and `<style>` have types of their own, as in domhandler. */
export interface ElementNode extends Links {
  type: 'tag' | 'script' | 'style';
  name: string;
  attribs: Record<string, string>;
  children: ChildStorage[];
  /**
   * `isNoise`'s verdict, memoized by rules.ts (undefined until asked): the block walk and the
   * inline pass, lists, tables and infoboxes each ask it of the same elements. The tree is never
   * changed after it is built, so the verdict cannot go stale. Set (to undefined) by the builder so
   * that every element has the same shape.
   */
  noise?: boolean | undefined;
}

export interface TextNode extends Links {
  type: 'text';
  data: string;
}

export interface CommentNode extends Links {
  type: 'comment';
  data: string;
}

/** Name `!doctype`, data the declaration with its `!`. */
export interface DirectiveNode extends Links {
  type: 'directive';
  name: string;
  data: string;
}

export interface DocumentNode extends Links {
  type: 'root';
  children: ChildStorage[];
  /**
   * Every element with an `id` attribute, in document order, listed by the builder as it makes
   * them: an index of anchors (reference/html.ts) reads this rather than walking the whole tree.
   */
  ids: ElementNode[];
  /**
   * What reference/html.ts indexes once per document, made on first use. Held by the tree so that
   * it dies with it: module-level WeakMaps keyed by the tree kept each parsed tree alive through
   * the young-generation collections after its parse, and the collector copied and promoted whole
   * trees (11 % of the engine's time on the corpus).
   */
  references: ReferenceIndexes | undefined;
}

export type ParentStorage = DocumentNode | ElementNode;
export type ChildStorage = ElementNode | TextNode | CommentNode | DirectiveNode;
export type AnyStorage = ParentStorage | ChildStorage;

/** See DocumentNode.references. */
export interface ReferenceIndexes {
  /** The `CITEREF…` anchors short footnotes link to, by id; undefined until asked for. */
  anchors: Map<string, Element> | undefined;
  /** The text of each full citation short footnotes point at, read once, and the context it was read in. */
  readonly sourceTexts: Map<Element, { readonly ctx: object; readonly text: { value: string; links: Link[] } }>;
  /** How many in-text marker searches the document's lists made (each walks the document). */
  markerSearches: number;
}
