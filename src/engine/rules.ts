/**
 * Element predicates compiled from `grammar/`: is this element noise, pronunciation, an infobox?
 * They run on every element of every article, so they test attribute tokens against Sets and
 * never allocate for elements without the attribute.
 */
import type { Element } from './dom.js';
import { attr, isElement, noiseVerdict, parentOf, rawText, someToken, someTokenIn, tagName } from './dom.js';
import { ARTICLE_PATH, INFOBOX, NOISE, PRONUNCIATION } from './grammar.js';

const hasNoiseClass = (t: string): boolean => NOISE.classes.has(t);
const hasNoiseTypeof = (t: string): boolean => NOISE.typeofs.has(t);
const hasPronunciationClass = (t: string): boolean => PRONUNCIATION.classes.has(t);
const hasPronunciationTypeof = (t: string): boolean => PRONUNCIATION.typeofs.has(t);
const hasInfoboxClass = (t: string): boolean => INFOBOX.classes.has(t);

export function isHiddenStyle(style: string): boolean {
  return NOISE.isHiddenStyle(style);
}

/** Not article content: dropped with its whole subtree (grammar/noise.json). */
export function isNoise(el: Element): boolean {
  return noiseVerdict(el, readNoise);
}

function readNoise(el: Element): boolean {
  const name = tagName(el);
  if (NOISE.tags.has(name)) return true;
  const cls = attr(el, 'class');
  if (cls !== undefined && someToken(cls, hasNoiseClass)) return true;
  const type = attr(el, 'typeof');
  if (type !== undefined && someToken(type, hasNoiseTypeof)) return true;
  const role = attr(el, 'role');
  if (role !== undefined && NOISE.roles.has(role)) return true;
  const id = attr(el, 'id');
  if (id !== undefined && NOISE.ids.has(id)) return true;
  const style = attr(el, 'style');
  if (style !== undefined && isHiddenStyle(style) && !isCollapsed(el)) return true;
  if (name === 'a') {
    const href = attr(el, 'href');
    if (href !== undefined) return isChromeLink(el, href);
  }
  return false;
}

/**
 * Hidden by its style, but only collapsed (grammar/noise.json `collapsed`): a section the mobile
 * apps folded, the table a mobile-html page shows after a tap, MediaWiki's collapsed content.
 * Collapsed is not hidden: what a reader opens with a tap is the article.
 */
function isCollapsed(el: Element): boolean {
  const { tags, classes, containers } = NOISE.collapsed;
  if (tags.has(tagName(el)) || hasClassIn(el, classes)) return true;
  const parent = parentOf(el);
  return parent !== null && isElement(parent) && hasClassIn(parent, containers);
}

/**
 * A link that is reader help or player chrome rather than content: the "?" of a help link after a
 * name in another script, "Problems playing this file?", an audio link whose text is only the
 * player's word for it ("listen", "escuchar"): its text would read as part of the sentence; or a
 * link into the wiki's interface ("[edit] [history]" navbars, grammar/noise.json `actionLinks`).
 */
function isChromeLink(a: Element, href: string): boolean {
  // Runs for every link of every page: compares in place, allocating nothing for ordinary links.
  const at = targetStart(href);
  for (const prefix of NOISE.linkPrefixes) if (href.startsWith(prefix, at)) return true;
  if (href.includes('action=') && isActionLink(href)) return true;
  // A loop rather than `.some` with an arrow: that made a closure for every link of every page.
  for (const ext of NOISE.audioExtensions) if (endsWithIgnoringCase(href, ext)) return NOISE.audioLabels.has(rawText(a).trim().toLowerCase());
  return false;
}

/**
 * The query names an interface action of grammar/noise.json `actionLinks` (`action=edit`,
 * `veaction=edit`, `action=history`…) and is no red link: a red link is `action=edit&redlink=1`,
 * and its text is the article's.
 */
function isActionLink(href: string): boolean {
  const query = href.indexOf('?');
  if (query < 0) return false;
  let action = false;
  for (const param of href.slice(query + 1).split(/[&#]/)) {
    const eq = param.indexOf('=');
    const key = eq < 0 ? param : param.slice(0, eq);
    if (key === 'redlink') return false;
    if ((key === 'action' || key === 'veaction') && NOISE.actionLinks.has(param.slice(eq + 1))) action = true;
  }
  return action;
}

/** Where the page name starts in a wiki link: after "./" (Parsoid) or "/wiki/" (skin), else 0. */
function targetStart(href: string): number {
  if (href.startsWith('./')) return 2;
  return href.startsWith(ARTICLE_PATH) ? ARTICLE_PATH.length : 0;
}

/** `text` ends with `suffix` (lower case), in any case: ".OGG" as ".ogg". */
function endsWithIgnoringCase(text: string, suffix: string): boolean {
  const from = text.length - suffix.length;
  if (from < 0) return false;
  for (let i = 0; i < suffix.length; i++) {
    const c = text.charCodeAt(from + i);
    // ASCII upper case to lower; the suffixes are ASCII.
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== suffix.charCodeAt(i)) return false;
  }
  return true;
}

/** Pronunciation guides: content in paragraphs, dropped from the abstract (grammar/pronunciation.json). */
export function isPronunciation(el: Element): boolean {
  const cls = attr(el, 'class');
  if (cls !== undefined && someToken(cls, hasPronunciationClass)) return true;
  const type = attr(el, 'typeof');
  if (type !== undefined && someToken(type, hasPronunciationTypeof)) return true;
  if (tagName(el) === 'a') {
    const href = attr(el, 'href');
    if (href === undefined) return false;
    const at = targetStart(href);
    return PRONUNCIATION.linkPrefixes.some((p) => href.startsWith(p, at));
  }
  return false;
}

export function isInfobox(el: Element): boolean {
  const cls = attr(el, 'class');
  return cls !== undefined && someToken(cls, hasInfoboxClass);
}

/** True when one of `el`'s class tokens is in `classes`. */
export function hasClassIn(el: Element, classes: ReadonlySet<string>): boolean {
  return someTokenIn(attr(el, 'class'), classes);
}
