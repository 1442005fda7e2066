/**
 * The tree the engine walks, built by tree-builder.ts, and the only way to read it. Parsing is the
 * single most expensive step, so it happens once; every later step walks this tree without
 * cloning it. Rules hold opaque handles (dom-nodes.ts) and read them through the accessors below,
 * named as the DOM names them (`tagName`, `childNodes`, `parentOf`…), so that how the tree is stored
 * is this module's business alone.
 */
import type { AnyNode, AnyStorage, ChildNode, Comment, Directive, DirectiveNode, Document, DocumentNode, Element, ElementNode, NodeList, ParentNode, ReferenceIndexes, Text } from './dom-nodes.js';
import { buildTree } from './tree-builder.js';

export type { AnyNode, ChildNode, Comment, Directive, Document, Element, NodeList, ParentNode, ReferenceIndexes, Text } from './dom-nodes.js';

export function parseHtml(html: string): Document {
  return buildTree(html) as unknown as Document;
}

// The handles are the storage objects themselves, typed apart: these casts cost nothing at run time.
const stored = (node: AnyNode): AnyStorage => node as unknown as AnyStorage;
const storedElement = (el: Element): ElementNode => el as unknown as ElementNode;

/** Element nodes, `<script>` and `<style>` included. */
export function isElement(node: AnyNode): node is Element {
  const type = stored(node).type;
  return type === 'tag' || type === 'script' || type === 'style';
}

export function isText(node: AnyNode): node is Text {
  return stored(node).type === 'text';
}

export function isComment(node: AnyNode): node is Comment {
  return stored(node).type === 'comment';
}

export function isDirective(node: AnyNode): node is Directive {
  return stored(node).type === 'directive';
}

export function isDocument(node: AnyNode): node is Document {
  return stored(node).type === 'root';
}

/** The document or an element: a node that may have children. */
export function isParentNode(node: AnyNode): node is ParentNode {
  return isDocument(node) || isElement(node);
}

/**
 * domhandler's node type: `tag`, or `script` and `style`, which have types of their own; `text`,
 * `comment`, `directive`, `root`. For the few tests that tell `<script>`/`<style>` from other
 * elements; the guards above answer the rest.
 */
export function nodeType(node: AnyNode): AnyStorage['type'] {
  return stored(node).type;
}

/** The element's name, lower case (SVG's camel-cased names as SVG writes them). */
export function tagName(el: Element): string {
  return storedElement(el).name;
}

/** The value of the attribute `name` (lower case), undefined when the element has none. */
export function attr(el: Element, name: string): string | undefined {
  return storedElement(el).attribs[name];
}

/** Every attribute of the element, in source order: name (lower case) and value. */
export function attributes(el: Element): [name: string, value: string][] {
  return Object.entries(storedElement(el).attribs);
}

/** The children of an element or the document; none for other nodes. */
export function childNodes(node: AnyNode): NodeList {
  const s = stored(node);
  return (s.type === 'root' || s.type === 'tag' || s.type === 'script' || s.type === 'style' ? s.children : NO_CHILDREN) as unknown as NodeList;
}
const NO_CHILDREN: readonly never[] = [];

export function parentOf(node: AnyNode): ParentNode | null {
  return stored(node).parent as unknown as ParentNode | null;
}

export function nextSibling(node: AnyNode): ChildNode | null {
  return stored(node).next as unknown as ChildNode | null;
}

export function previousSibling(node: AnyNode): ChildNode | null {
  return stored(node).prev as unknown as ChildNode | null;
}

/**
 * The characters of a text or comment node, character references decoded; a doctype's
 * declaration with its `!` (`!doctype html`).
 */
export function textOf(node: Text | Comment | Directive): string {
  return (node as unknown as { data: string }).data;
}

/** A directive's name: `!doctype`, the only one HTML has. */
export function directiveName(node: Directive): string {
  return (node as unknown as DirectiveNode).name;
}

/** Every element with an `id` attribute, in document order (the builder lists them as it makes them). */
export function elementsWithId(doc: Document): readonly Element[] {
  return (doc as unknown as DocumentNode).ids as unknown as readonly Element[];
}

/**
 * What reference/html.ts indexes once per document, made by `make` on first use and kept by the
 * tree, so that it dies with it (DocumentNode.references says why not in a WeakMap).
 */
export function referenceIndexes(doc: Document, make: () => ReferenceIndexes): ReferenceIndexes {
  const s = doc as unknown as DocumentNode;
  return (s.references ??= make());
}

/**
 * `read(el)`, asked once per element and remembered by the tree: rules.ts's noise verdict, which
 * the block walk, the inline pass, lists, tables and infoboxes each ask of the same elements.
 * The tree never changes after it is built, so the verdict cannot go stale.
 */
export function noiseVerdict(el: Element, read: (el: Element) => boolean): boolean {
  const s = storedElement(el);
  let noise = s.noise;
  if (noise === undefined) s.noise = noise = read(el);
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
    pushElements(stack, childNodes(node));
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
    pushElements(stack, childNodes(node));
  }
  return out;
}

/** Pushes the element children in reverse, so that popping visits them in document order. */
function pushElements(stack: ParentNode[], kids: NodeList): void {
  for (let i = kids.length - 1; i >= 0; i--) {
    const kid = kids[i]!;
    if (isElement(kid)) stack.push(kid);
  }
}

/** All text below `root`, iteratively; used where structure no longer matters. */
export function rawText(root: AnyNode): string {
  let out = '';
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    // Not into <script> and <style>: their text is code.
    if (isText(node)) out += textOf(node);
    else if (isDocument(node) || (isElement(node) && stored(node).type === 'tag')) {
      const kids = childNodes(node);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
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

export function firstElementChild(el: Element): Element | undefined {
  for (const c of childNodes(el)) if (isElement(c)) return c;
  return undefined;
}
