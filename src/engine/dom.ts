/**
 * The tree the engine walks: plain objects built by tree-builder.ts, with the field names of
 * domhandler (htmlparser2's DOM) so that the walkers read like any htmlparser2 code. Parsing is the
 * single most expensive step, so it happens once; every later step walks this tree without
 * cloning it.
 */
import type { AnyNode, ChildNode, Document, Element, ParentNode } from './dom-nodes.js';
import { buildTree } from './tree-builder.js';

export type { AnyNode, ChildNode, Comment, Directive, Document, Element, ParentNode, ReferenceIndexes, Text } from './dom-nodes.js';

export function parseHtml(html: string): Document {
  return buildTree(html);
}

/** Element nodes, `<script>` and `<style>` included. */
export function isElement(node: AnyNode): node is Element {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
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
  return hasToken(el.attribs.class, name);
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
  if (!hasChildren(root)) return undefined;
  const stack: ParentNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node !== root && test(node as Element)) return node as Element;
    pushElements(stack, node.children);
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
  if (!hasChildren(root)) return out;
  const stack: ParentNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node !== root && test(node as Element)) {
      out.push(node as Element);
      continue;
    }
    pushElements(stack, node.children);
  }
  return out;
}

function hasChildren(node: AnyNode): node is ParentNode {
  return node.type === 'root' || isElement(node);
}

/** Pushes the element children in reverse, so that popping visits them in document order. */
function pushElements(stack: ParentNode[], kids: readonly ChildNode[]): void {
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
    if (node.type === 'text') out += node.data;
    else if (node.type === 'root' || node.type === 'tag') {
      const kids = node.children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
  }
  return out;
}

/** The top of the tree `node` belongs to: the document, or the highest detached ancestor. */
export function rootOf(node: AnyNode): AnyNode {
  let root = node;
  while (root.parent !== null) root = root.parent;
  return root;
}

export function firstElementChild(el: Element): Element | undefined {
  for (const c of el.children) if (isElement(c)) return c;
  return undefined;
}
