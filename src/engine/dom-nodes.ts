/**
 * The node types of the engine's tree (./dom.ts), with the field names of domhandler. A module of
 * their own so that the tree builder, which makes them, and dom.ts, which parses with it and
 * walks them, do not import each other.
 */
import type { Link } from '../schema/article.js';

interface Links {
  parent: ParentNode | null;
  prev: ChildNode | null;
  next: ChildNode | null;
}

/** `<script>` and `<style>` have types of their own, as in domhandler. */
export interface Element extends Links {
  type: 'tag' | 'script' | 'style';
  name: string;
  attribs: Record<string, string>;
  children: ChildNode[];
  /**
   * `isNoise`'s verdict, memoized by rules.ts (undefined until asked): the block walk and the
   * inline pass, lists, tables and infoboxes each ask it of the same elements. The tree is never
   * changed after it is built, so the verdict cannot go stale. Set (to undefined) by the builder so
   * that every element has the same shape.
   */
  noise?: boolean | undefined;
}

export interface Text extends Links {
  type: 'text';
  data: string;
}

/** Comments, and CDATA outside foreign content. */
export interface Comment extends Links {
  type: 'comment';
  data: string;
}

/** `<!doctype …>`: name `!doctype`, data the declaration with its `!`. */
export interface Directive extends Links {
  type: 'directive';
  name: string;
  data: string;
}

export interface Document extends Links {
  type: 'root';
  children: ChildNode[];
  /**
   * Every element with an `id` attribute, in document order, listed by the builder as it makes
   * them: an index of anchors (reference/html.ts) reads this rather than walking the whole tree.
   */
  ids: Element[];
  /**
   * What reference/html.ts indexes once per document, made on first use. Held by the tree so that
   * it dies with it: module-level WeakMaps keyed by the tree kept each parsed tree alive through
   * the young-generation collections after its parse, and the collector copied and promoted whole
   * trees (11 % of the engine's time on the corpus).
   */
  references: ReferenceIndexes | undefined;
}

/** See Document.references. */
export interface ReferenceIndexes {
  /** The `CITEREF…` anchors short footnotes link to, by id; undefined until asked for. */
  anchors: Map<string, Element> | undefined;
  /** The text of each full citation short footnotes point at, read once, and the context it was read in. */
  readonly sourceTexts: Map<Element, { readonly ctx: object; readonly text: { value: string; links: Link[] } }>;
  /** How many in-text marker searches the document's lists made (each walks the document). */
  markerSearches: number;
}

export type ParentNode = Document | Element;
export type ChildNode = Element | Text | Comment | Directive;
export type AnyNode = ParentNode | ChildNode;

