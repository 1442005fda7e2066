/**
 * The one-line value of a list field, shared by both front doors: an item with its sub-items in
 * parentheses ("62.6% Christianity (32.0% Protestantism; 23.0% Catholicism)"), or after a lead-in
 * that ends in a colon ("By race: 70% White; 12% Black"); items separated by "; ".
 */
import type { Part } from '../schema/article.js';

export function itemText(item: Part): string {
  const own = item.value ?? '';
  const children = item.has_parts;
  if (children === undefined || children.length === 0) return own;
  const inner = children.map(itemText).join('; ');
  if (own.length === 0) return inner;
  return /[:：]$/u.test(own) ? `${own} ${inner}` : `${own} (${inner})`;
}
