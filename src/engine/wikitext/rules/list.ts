/** List lines → one list part; a deeper marker nests a list in the previous item. */
import type { Part } from '../../../schema/article.js';
import { addPart as add } from '../../section-tree.js';
import type { Piece, Rendered } from '../render.js';
import type { Line } from './paragraph.js';

/** Deeper list markers are read as this depth: keeps the output tree shallow on garbage input. */
const MAX_LIST_DEPTH = 20;

/**
 * The list of `lines` (each with a marker), each item rendered by `renderItem` in document order;
 * undefined when no item has text.
 */
export function listOf(lines: readonly Line[], renderItem: (pieces: Piece[]) => Rendered): Part | undefined {
  const root: Part = { type: 'list' };
  const stack: { depth: number; list: Part }[] = [{ depth: 1, list: root }];
  for (const line of lines) {
    const depth = Math.min(MAX_LIST_DEPTH, Math.max(1, line.marker!.length));
    while (stack.length > 1 && stack[stack.length - 1]!.depth > depth) stack.pop();
    while (stack[stack.length - 1]!.depth < depth) {
      const top = stack[stack.length - 1]!;
      const items = top.list.has_parts ?? [];
      let last = items[items.length - 1];
      if (last === undefined) {
        last = { type: 'list_item' };
        add(top.list, last);
      }
      const nested: Part = { type: 'list' };
      add(last, nested);
      stack.push({ depth: top.depth + 1, list: nested });
    }
    const r = renderItem(line.pieces);
    if (r.value.length === 0) continue;
    const item: Part = { type: 'list_item', value: r.value };
    if (r.links.length > 0) item.links = r.links;
    if (r.citations.length > 0) item.citations = r.citations;
    add(stack[stack.length - 1]!.list, item);
  }
  pruneEmpty(root);
  return root.has_parts === undefined || root.has_parts.length === 0 ? undefined : root;
}

/** Items created only to hold a nested list that stayed empty are removed. */
function pruneEmpty(list: Part): void {
  if (list.has_parts === undefined) return;
  list.has_parts = list.has_parts.filter((item) => {
    if (item.has_parts !== undefined) {
      for (const l of item.has_parts) pruneEmpty(l);
      item.has_parts = item.has_parts.filter((l) => (l.has_parts?.length ?? 0) > 0);
      if (item.has_parts.length === 0) delete item.has_parts;
    }
    return item.value !== undefined || item.has_parts !== undefined;
  });
  if (list.has_parts.length === 0) delete list.has_parts;
}
