/**
 * Which `<a>` elements are links for Article output. A red link — a wiki link to a page that
 * does not exist — points at the page's edit form (`./Title?action=edit&redlink=1` in Parsoid
 * HTML, `/w/index.php?title=Title&action=edit&redlink=1` on rendered pages; both carry
 * `class="new"`). It leads a reader nowhere, so it is not emitted as a link; its text stays in
 * the value like any other text.
 */
import type { Element } from './dom.js';
import { hasClass } from './dom.js';

const REDLINK = /[?&]redlink=1(?:&|#|$)/;

export function isRedLink(a: Element, href: string): boolean {
  return (href.includes('redlink=1') && REDLINK.test(href)) || hasClass(a, 'new');
}
