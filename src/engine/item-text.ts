/**
 * The items of a list field, shared by both front doors: how an item is built from its rendered
 * text, when items make a list, and the one-line value of the list — an item with its sub-items in
 * parentheses ("62.6% Christianity (32.0% Protestantism; 23.0% Catholicism)"), or after a lead-in
 * that ends in a colon ("By race: 70% White; 12% Black"); items separated by "; " (a space after one that ends in a separator).
 */
import type { Citation, Link, Part } from '../schema/article.js';

/** Rendered text as either door gives it (an HTML `Inline`, a wikitext `Rendered`). */
export interface ItemContent {
  value: string;
  links: Link[];
  citations: Citation[];
}

export function itemPart(content: ItemContent, children: Part[] = []): Part {
  const part: Part = { type: 'list_item', value: content.value };
  if (content.links.length > 0) part.links = content.links;
  if (content.citations.length > 0) part.citations = content.citations;
  if (children.length > 0) part.has_parts = children;
  return part;
}

/** One item alone is a value, not a list (unless it carries a sub-list). */
export const makesList = (items: readonly Part[]): boolean => items.length > 1 || items[0]?.has_parts !== undefined;

/**
 * The items' links and citations, each item's before its sub-items', appended to the arrays given,
 * each one once. A `field` among the items already holds its own items' links (fieldPart and
 * tableRow gather them), and reading both the field and its items counted those twice; a field of
 * a table inside a table inside a table counted them once per path, 2^depth times (a 229 KB page of
 * nested infobox tables, found by the fuzzer, took half a minute and, beside a profiler, ran out of
 * array length). The same link written twice is two objects, so both stay; the object seen again
 * through another level is skipped.
 */
export function gatherItems(items: readonly Part[], links: Link[], citations: Citation[]): void {
  gatherOnce(items, links, citations, new Set());
}

function gatherOnce(items: readonly Part[], links: Link[], citations: Citation[], seen: Set<Link | Citation>): void {
  for (const item of items) {
    if (item.links !== undefined) pushUnseen(links, item.links, seen);
    if (item.citations !== undefined) pushUnseen(citations, item.citations, seen);
    if (item.has_parts !== undefined) gatherOnce(item.has_parts, links, citations, seen);
  }
}

function pushUnseen<T extends Link | Citation>(target: T[], items: readonly T[], seen: Set<Link | Citation>): void {
  for (const item of items) {
    if (seen.has(item)) continue;
    seen.add(item);
    target.push(item);
  }
}

/**
 * The one-line value of a list of items. An item that already ends in a separator, written before
 * a line break ("Christianity,<br>Armenian Apostolic Church"), is followed by a space, not a
 * second separator (",;"); a full-width one (CJK "、") by nothing.
 */
export function itemsText(items: readonly Part[]): string {
  let out = '';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ENDS_IN_WIDE_SEPARATOR.test(out) ? '' : ENDS_IN_SEPARATOR.test(out) ? ' ' : '; ';
    out += itemText(items[i]!);
  }
  return out;
}
const ENDS_IN_SEPARATOR = /[,;]$/;
/** Full-width separators (CJK) carry their own space. */
const ENDS_IN_WIDE_SEPARATOR = /[，；、]$/u;

function itemText(item: Part): string {
  const own = item.value ?? '';
  const children = item.has_parts;
  if (children === undefined || children.length === 0) return own;
  const inner = itemsText(children);
  if (own.length === 0) return inner;
  return /[:：]$/u.test(own) ? `${own} ${inner}` : `${own} (${inner})`;
}
