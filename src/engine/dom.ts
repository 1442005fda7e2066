/**
 * The tree the engine walks, built by tree-builder.ts, and the only way to read it. Parsing is the
 * single most expensive step, so it happens once; every later step walks this tree without
 * cloning it. Rules hold opaque handles (dom-nodes.ts) and read them through the accessors below,
 * named as the DOM names them (`tagName`, `childNodes`, `parentOf`…), so that how the tree is stored
 * (tree-store.ts: typed arrays outside the JavaScript heap) is this module's business alone.
 */
import type { AnyNode, ChildNode, Comment, Directive, Document, Element, NodeList, ParentNode, ReferenceIndexes, Text } from './dom-nodes.js';
import { buildTree } from './tree-builder.js';
import { ID_MASK, Kind, KIND_NAMES, treeOf } from './tree-store.js';
import type { KindName } from './tree-store.js';

export type { AnyNode, ChildNode, Comment, Directive, Document, Element, NodeList, ParentNode, ReferenceIndexes, Text } from './dom-nodes.js';

/**
 * The page's document; `maxNesting` caps the depth of the tree (tree-builder.ts MAX_NESTING). The
 * tree is kept until SLOT_COUNT more pages have been parsed (tree-store.ts); a caller that is done
 * with it sooner says so with `withDocument`.
 */
export function parseHtml(html: string, maxNesting?: number): Document {
  return (buildTree(html, maxNesting).base + 1) as Document;
}

/**
 * `read(doc)` over the page's document, which is let go as soon as it returns or throws: the page's
 * HTML and strings are not kept for the pages after it (its handles are refused from then on).
 * Whatever `read` returns must hold no handle.
 */
export function withDocument<T>(html: string, read: (doc: Document) => T): T {
  const doc = parseHtml(html);
  try {
    return read(doc);
  } finally {
    treeOf(doc).release();
  }
}

// A handle is a number: the page's tag above the node's id (tree-store.ts).
const kindOf = (node: AnyNode): Kind => treeOf(node).kind[node & ID_MASK]!;

/** Element nodes, `<script>` and `<style>` included. */
export function isElement(node: AnyNode): node is Element {
  return kindOf(node) <= Kind.Style;
}

export function isText(node: AnyNode): node is Text {
  return kindOf(node) === Kind.Text;
}

export function isComment(node: AnyNode): node is Comment {
  return kindOf(node) === Kind.Comment;
}

export function isDirective(node: AnyNode): node is Directive {
  return kindOf(node) === Kind.Directive;
}

export function isDocument(node: AnyNode): node is Document {
  return kindOf(node) === Kind.Root;
}

/** The document or an element: a node that may have children. */
export function isParentNode(node: AnyNode): node is ParentNode {
  const kind = kindOf(node);
  return kind <= Kind.Style || kind === Kind.Root;
}

/**
 * domhandler's node type: `tag`, or `script` and `style`, which have types of their own; `text`,
 * `comment`, `directive`, `root`. For the few tests that tell `<script>`/`<style>` from other
 * elements; the guards above answer the rest.
 */
export function nodeType(node: AnyNode): KindName {
  return KIND_NAMES[kindOf(node)]!;
}

/** The element's name, lower case (SVG's camel-cased names as SVG writes them). */
export function tagName(el: Element): string {
  const tree = treeOf(el);
  return tree.names[tree.name[el & ID_MASK]!]!;
}

/** The value of the attribute `name` (lower case), undefined when the element has none. */
export function attr(el: Element, name: string): string | undefined {
  const tree = treeOf(el);
  const node = el & ID_MASK;
  const from = tree.attrs[node]!;
  const to = from + tree.attrCount[node]!;
  // Names are stored one string per name (tree-store.ts attrName) and asked for by literals, both
  // internalized: most comparisons end at the pointers.
  const names = tree.attrName;
  for (let a = from; a < to; a++) if (names[a] === name) return tree.read(tree.valueStart[a]!, tree.valueEnd[a]!);
  return undefined;
}

/** Every attribute of the element, in source order: name (lower case) and value. */
export function attributes(el: Element): [name: string, value: string][] {
  const tree = treeOf(el);
  const node = el & ID_MASK;
  const out: [string, string][] = [];
  const from = tree.attrs[node]!;
  const to = from + tree.attrCount[node]!;
  for (let a = from; a < to; a++) out.push([tree.attrName[a]!, tree.read(tree.valueStart[a]!, tree.valueEnd[a]!)]);
  return out;
}

/** The children of an element or the document (none for other nodes): a view of the tree's column. */
export function childNodes(node: AnyNode): NodeList {
  const tree = treeOf(node);
  const id = node & ID_MASK;
  const first = tree.first[id]!;
  return tree.kids.subarray(first, first + tree.count[id]!) as unknown as NodeList;
}

export function parentOf(node: AnyNode): ParentNode | null {
  const parent = treeOf(node).parent[node & ID_MASK]!;
  return parent === 0 ? null : (parent as ParentNode);
}

export function nextSibling(node: AnyNode): ChildNode | null {
  return sibling(node, 1);
}

export function previousSibling(node: AnyNode): ChildNode | null {
  return sibling(node, -1);
}

function sibling(node: AnyNode, step: 1 | -1): ChildNode | null {
  const tree = treeOf(node);
  const id = node & ID_MASK;
  const parent = tree.parent[id]!;
  if (parent === 0) return null;
  const at = tree.slot[id]! + step;
  const p = parent & ID_MASK;
  const first = tree.first[p]!;
  return at >= first && at < first + tree.count[p]! ? (tree.kids[at]! as ChildNode) : null;
}

/**
 * The characters of a text or comment node, character references decoded; a doctype's
 * declaration with its `!` (`!doctype html`).
 */
export function textOf(node: Text | Comment | Directive): string {
  const tree = treeOf(node);
  const id = node & ID_MASK;
  return tree.read(tree.start[id]!, tree.end[id]!);
}

/** A directive's name: `!doctype`, the only one HTML has. */
export function directiveName(node: Directive): string {
  const tree = treeOf(node);
  return tree.names[tree.name[node & ID_MASK]!]!;
}

/** Every element with an `id` attribute, in document order (the builder lists them as it makes them). */
export function elementsWithId(doc: Document): readonly Element[] {
  return treeOf(doc).withId as unknown as readonly Element[];
}

/**
 * What reference/html.ts indexes once per document, made by `make` on first use and kept with the
 * tree, so that it goes with it.
 */
export function referenceIndexes(doc: Document, make: () => ReferenceIndexes): ReferenceIndexes {
  const tree = treeOf(doc);
  return (tree.references ??= make());
}

/**
 * `read(el)`, asked once per element and remembered by the tree: rules.ts's noise verdict, which
 * the block walk, the inline pass, lists, tables and infoboxes each ask of the same elements.
 * The tree never changes after it is built, so the verdict cannot go stale.
 */
export function noiseVerdict(el: Element, read: (el: Element) => boolean): boolean {
  const tree = treeOf(el);
  const id = el & ID_MASK;
  const known = tree.noise[id]!;
  if (known !== 0) return known === 2;
  const noise = read(el);
  tree.noise[id] = noise ? 2 : 1;
  return noise;
}

/** True when the whitespace-separated token list `list` contains `token`, without splitting. */
export function hasToken(list: string | undefined, token: string): boolean {
  if (list === undefined) return false;
  let from = 0;
  for (;;) {
    const at = list.indexOf(token, from);
    if (at < 0) return false;
    const end = at + token.length;
    if ((at === 0 || isSpace(list.charCodeAt(at - 1))) && (end === list.length || isSpace(list.charCodeAt(end)))) {
      return true;
    }
    from = end;
  }
}

/**
 * True when `list` contains any of `tokens`. For the grammar's short token lists, looked for in
 * place: nothing is sliced out of the many attributes that hold none of them.
 */
export function hasAnyToken(list: string | undefined, tokens: readonly string[]): boolean {
  if (list === undefined) return false;
  for (const token of tokens) if (hasToken(list, token)) return true;
  return false;
}

export function hasClass(el: Element, name: string): boolean {
  return hasToken(attr(el, 'class'), name);
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}

/** Calls `fn` on each token of a whitespace-separated list; stops when `fn` returns true. */
export function someToken(list: string | undefined, fn: (token: string) => boolean): boolean {
  if (list === undefined || list.length === 0) return false;
  for (const token of tokensOf(list)) if (fn(token)) return true;
  return false;
}

/** True when a token of `list` is in `set`: someToken's common case, with no closure made per call. */
export function someTokenIn(list: string | undefined, set: ReadonlySet<string>): boolean {
  if (list === undefined || list.length === 0) return false;
  for (const token of tokensOf(list)) if (set.has(token)) return true;
  return false;
}

/**
 * The tokens of `list`, split once per distinct list: the same few hundred class and typeof values
 * recur on thousands of elements, and each element's are tested by several rules (noise,
 * pronunciation, the walk's block rules, the inline pass again). Splitting them afresh each time
 * sliced a string per token per test and hashed each slice for the Set lookup. The memo keeps a
 * copy of the key: attribute values are slices of the page's HTML and would otherwise keep whole
 * pages alive. Bounded, so adversarial input with endless distinct values costs a re-split, no memory.
 */
function tokensOf(list: string): readonly string[] {
  let tokens = splitLists.get(list);
  if (tokens === undefined) {
    const key = ` ${list}`.slice(1);
    tokens = splitTokens(key);
    if (splitLists.size >= MAX_SPLIT_LISTS) splitLists.clear();
    splitLists.set(key, tokens);
  }
  return tokens;
}
const MAX_SPLIT_LISTS = 4096;
const splitLists = new Map<string, readonly string[]>();

function splitTokens(list: string): string[] {
  const tokens: string[] = [];
  let start = -1;
  for (let i = 0; i <= list.length; i++) {
    const space = i === list.length || isSpace(list.charCodeAt(i));
    if (space) {
      if (start >= 0) {
        tokens.push(list.slice(start, i));
        start = -1;
      }
    } else if (start < 0) {
      start = i;
    }
  }
  return tokens;
}

/**
 * The first element in document order that satisfies `test`, found without recursion so that
 * arbitrarily deep documents cannot overflow the stack. Only elements are stacked: text is half
 * the nodes of an article and can never match.
 */
export function findFirst(root: AnyNode, test: (el: Element) => boolean): Element | undefined {
  if (!isParentNode(root)) return undefined;
  const stack: ParentNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node !== root && test(node as Element)) return node as Element;
    pushElements(stack, node);
  }
  return undefined;
}

/** Calls `fn` on every element below `root`, in document order: findFirst's walk, with no match. */
export function forEachElement(root: AnyNode, fn: (el: Element) => void): void {
  findFirst(root, (el) => {
    fn(el);
    return false;
  });
}

/** Every element in document order that satisfies `test`; does not descend into matches. */
export function findAll(root: AnyNode, test: (el: Element) => boolean): Element[] {
  const out: Element[] = [];
  if (!isParentNode(root)) return out;
  const stack: ParentNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node !== root && test(node as Element)) {
      out.push(node as Element);
      continue;
    }
    pushElements(stack, node);
  }
  return out;
}

/** Pushes the element children in reverse, so that popping visits them in document order. */
function pushElements(stack: ParentNode[], node: ParentNode): void {
  // Straight from the columns: no view of the children is made for each node of the search.
  const tree = treeOf(node);
  const id = node & ID_MASK;
  const kids = tree.kids;
  const kinds = tree.kind;
  const first = tree.first[id]!;
  for (let i = first + tree.count[id]! - 1; i >= first; i--) {
    const kid = kids[i]!;
    if (kinds[kid & ID_MASK]! <= Kind.Style) stack.push(kid as Element);
  }
}

/** All text below `root`, iteratively; used where structure no longer matters. */
export function rawText(root: AnyNode): string {
  const tree = treeOf(root);
  const { kind, kids, first, count, start, end } = tree;
  let out = '';
  const stack: number[] = [root];
  while (stack.length > 0) {
    const id = stack.pop()! & ID_MASK;
    const k = kind[id]!;
    // Not into <script> and <style>: their text is code.
    if (k === Kind.Text) out += tree.read(start[id]!, end[id]!);
    else if (k === Kind.Tag || k === Kind.Root) {
      const from = first[id]!;
      for (let i = from + count[id]! - 1; i >= from; i--) stack.push(kids[i]!);
    }
  }
  return out;
}

/** The top of the tree `node` belongs to: the document, or the highest detached ancestor. */
export function rootOf(node: AnyNode): AnyNode {
  let root = node;
  for (let parent = parentOf(root); parent !== null; parent = parentOf(root)) root = parent;
  return root;
}

export function firstElementChild(el: ParentNode): Element | undefined {
  for (const c of childNodes(el)) if (isElement(c)) return c;
  return undefined;
}
