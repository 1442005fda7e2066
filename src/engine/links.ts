/**
 * Which `<a>` elements are links for Article output.
 *
 * Parsoid says what each link is in its `rel` (Specs/HTML §Links: `mw:WikiLink`,
 * `mw:WikiLink/Interwiki`, `mw:ExtLink`, `mw:MediaLink`, …); that is read first, from
 * grammar/links.json. Only an `<a>` that carries none of those tokens — every link of a
 * skin-rendered page, and the few Parsoid anchors without a rel — is judged by its classes and
 * href, as mwparserfromhtml does.
 *
 * Two kinds of `<a>` are not links of the content:
 * - A red link — a wiki link to a page that does not exist — points at the page's edit form
 *   (`./Title?action=edit&redlink=1` in Parsoid HTML, `/w/index.php?title=Title&action=edit&redlink=1`
 *   on rendered pages; both carry `class="new"`). It leads a reader nowhere, so it is not emitted
 *   as a link; its text stays in the value like any other text.
 * - The link from a media element to the file's own description page (`File:Flag_of_France.svg`).
 *   It has no text: an inline icon (a flag beside a country name, a ribbon beside an order) would
 *   become a text-less link to a File page that says nothing about the sentence. The production
 *   parser leaves these out of the links of infobox fields too. A media element that links
 *   somewhere else (`[[File:X.svg|link=Armenia]]`) is a real link and stays, with its image.
 */
import type { Element } from './dom.js';
import { attr, findFirst, hasClass, isDocument, parentOf, someToken } from './dom.js';
import { LINKS, MEDIA, isMediaTypeof } from './grammar.js';
import { hasClassIn } from './rules.js';

const REDLINK = /[?&]redlink=1(?:&|#|$)/;

/** How `rel` classifies an `<a>`: a link, not a link, or silent (no Parsoid token in it). */
export type RelVerdict = 'link' | 'not-link' | undefined;

const isLinkRel = (t: string): boolean => LINKS.linkRels.has(t);
function isNotLinkRel(token: string): boolean {
  if (LINKS.notLinkRels.has(token)) return true;
  for (const prefix of LINKS.notLinkRelPrefixes) if (token.startsWith(prefix)) return true;
  return false;
}

/** What Parsoid's `rel` says about an `<a>`; undefined when it says nothing (skin pages). */
export function relVerdict(a: Element): RelVerdict {
  const rel = attr(a, 'rel');
  if (rel === undefined) return undefined;
  if (someToken(rel, isNotLinkRel)) return 'not-link';
  if (someToken(rel, isLinkRel)) return 'link';
  return undefined;
}

/** Whether an `<a>` with this `href` becomes a Link of the content. */
export function isContentLink(a: Element, href: string): boolean {
  const verdict = relVerdict(a);
  if (verdict === 'not-link') return false;
  if (verdict === undefined && isFileDescriptionLink(a)) return false;
  return !isRedLink(a, href);
}

export function isRedLink(a: Element, href: string): boolean {
  return (href.includes('redlink=1') && REDLINK.test(href)) || hasClassIn(a, LINKS.redLinkClasses);
}


/**
 * The `<a>` of a media element that leads to the file's description page: marked by its class
 * (`mw-file-description`; `image` on older skin pages), or, in Parsoid HTML without the class,
 * the `<a>` directly in a media element whose image names that same page as its `resource`.
 */
export function isFileDescriptionLink(a: Element): boolean {
  if (hasClassIn(a, MEDIA.descriptionLinkClasses)) return true;
  const parent = parentOf(a);
  if (parent === null || isDocument(parent) || !someToken(attr(parent, 'typeof'), isMediaTypeof)) return false;
  const href = attr(a, 'href');
  return href !== undefined && findFirst(a, (e) => attr(e, 'resource') === href) !== undefined;
}
