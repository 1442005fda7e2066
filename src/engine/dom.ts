/**
 * The typed tree the engine walks: htmlparser2's domhandler nodes. Parsing is the single most
 * expensive step, so it happens once; every later step walks this tree without cloning it.
 */
import { parseDocument } from 'htmlparser2';
import type { AnyNode, ChildNode, Document, Element, Text } from 'domhandler';

export type { AnyNode, ChildNode, Document, Element, Text };

export function parseHtml(html: string): Document {
  return parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
}

/** Element nodes: domhandler types `<script>` and `<style>` separately from other tags. */
export function isElement(node: AnyNode): node is Element {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

export function isText(node: AnyNode): node is Text {
  return node.type === 'text';
}

export function attr(el: Element, name: string): string | undefined {
  return el.attribs[name];
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

export function hasClass(el: Element, name: string): boolean {
  return hasToken(el.attribs.class, name);
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}

/** Calls `fn` on each token of a whitespace-separated list; stops when `fn` returns true. */
export function someToken(list: string | undefined, fn: (token: string) => boolean): boolean {
  if (list === undefined || list.length === 0) return false;
  let start = -1;
  for (let i = 0; i <= list.length; i++) {
    const space = i === list.length || isSpace(list.charCodeAt(i));
    if (space) {
      if (start >= 0) {
        if (fn(list.slice(start, i))) return true;
        start = -1;
      }
    } else if (start < 0) {
      start = i;
    }
  }
  return false;
}

/**
 * The first element in document order that satisfies `test`, found without recursion so that
 * arbitrarily deep documents cannot overflow the stack.
 */
export function findFirst(root: AnyNode, test: (el: Element) => boolean): Element | undefined {
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isElement(node) && node !== root && test(node)) return node;
    if ('children' in node) {
      const kids = node.children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
  }
  return undefined;
}

/** Every element in document order that satisfies `test`; does not descend into matches. */
export function findAll(root: AnyNode, test: (el: Element) => boolean): Element[] {
  const out: Element[] = [];
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isElement(node) && node !== root && test(node)) {
      out.push(node);
      continue;
    }
    if ('children' in node) {
      const kids = node.children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
  }
  return out;
}

/** All text below `root`, iteratively; used where structure no longer matters. */
export function rawText(root: AnyNode): string {
  let out = '';
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'text') out += (node as Text).data;
    else if ('children' in node && node.type !== 'script' && node.type !== 'style') {
      const kids = node.children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
  }
  return out;
}

export function firstElementChild(el: Element): Element | undefined {
  for (const c of el.children) if (isElement(c)) return c;
  return undefined;
}
