/**
 * The node types of the engine's tree (./dom.ts), with the field names of domhandler. A module of
 * their own so that the tree builder, which makes them, and dom.ts, which parses with it and
 * walks them, do not import each other.
 */
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
}

export type ParentNode = Document | Element;
export type ChildNode = Element | Text | Comment | Directive;
export type AnyNode = ParentNode | ChildNode;

