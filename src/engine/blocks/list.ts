/**
 * `ul`, `ol` and `dl` become `list` parts of `list_item` parts. A list nested in an item becomes
 * that item's `has_parts`, so the nesting survives. Definition lists keep terms and definitions
 * as separate items, in document order. A definition list that holds nothing but one formula
 * (wikitext `:<math>…</math>`) is a `formula` part instead (math.ts).
 */
import type { Part } from '../../schema/article.js';
import type { Element } from '../dom.js';
import { childNodes, isElement, rawText, tagName } from '../dom.js';
import type { Context } from '../context.js';
import { MAX_DEPTH } from '../context.js';
import { inline } from '../inline.js';
import { formulaPart, isBlockFormula } from '../math.js';
import { isNoise } from '../rules.js';

const LISTS = new Set(['ul', 'ol', 'dl']);
const ITEMS = new Set(['li', 'dt', 'dd']);

export function isList(el: Element): boolean {
  return LISTS.has(tagName(el));
}

export function listPart(list: Element, ctx: Context, depth: number): Part | undefined {
  // `:<math>…</math>`: a definition list that is nothing but one formula is that formula (math.ts).
  if (isBlockFormula(list)) return formulaPart(list);
  const items: Part[] = [];
  for (const child of childNodes(list)) {
    if (!isElement(child) || isNoise(child)) continue;
    if (ITEMS.has(tagName(child))) {
      const item = itemPart(child, ctx, depth + 1);
      if (item !== undefined) items.push(item);
    } else if (LISTS.has(tagName(child))) {
      // Invalid but common wikitext output: a list directly inside a list.
      const nested = listPart(child, ctx, depth + 1);
      if (nested !== undefined) items.push({ type: 'list_item', has_parts: [nested] });
    }
  }
  if (items.length === 0) return undefined;
  return { type: 'list', has_parts: items };
}

function itemPart(li: Element, ctx: Context, depth: number): Part | undefined {
  if (depth > MAX_DEPTH) {
    const value = rawText(li).replace(/\s+/g, ' ').trim();
    return value.length > 0 ? { type: 'list_item', value } : undefined;
  }
  // A formula alone in one item of a longer list: the item holds the formula part, not its TeX as text.
  if (isBlockFormula(li)) {
    const formula = formulaPart(li);
    return formula === undefined ? undefined : { type: 'list_item', has_parts: [formula] };
  }
  const { value, links, citations } = inline(li, ctx, { skipLists: true }, depth);
  const nested: Part[] = [];
  collectNestedLists(li, ctx, depth, nested);
  if (value.length === 0 && nested.length === 0) return undefined;
  const part: Part = { type: 'list_item' };
  if (value.length > 0) part.value = value;
  if (links.length > 0) part.links = links;
  if (citations.length > 0) part.citations = citations;
  if (nested.length > 0) part.has_parts = nested;
  return part;
}

/** Lists below an item, also when wrapped in a div or span, but not inside other lists. */
function collectNestedLists(el: Element, ctx: Context, depth: number, out: Part[]): void {
  if (depth > MAX_DEPTH) return;
  for (const child of childNodes(el)) {
    if (!isElement(child) || isNoise(child)) continue;
    if (LISTS.has(tagName(child))) {
      const nested = listPart(child, ctx, depth + 1);
      if (nested !== undefined) out.push(nested);
    } else if (childNodes(child).length > 0) {
      collectNestedLists(child, ctx, depth + 1, out);
    }
  }
}
