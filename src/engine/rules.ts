/**
 * Element predicates compiled from `grammar/`: is this element noise, pronunciation, an infobox?
 * They run on every element of every article, so they test attribute tokens against Sets and
 * never allocate for elements without the attribute.
 */
import type { Element } from './dom.js';
import { rawText, someToken } from './dom.js';
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
  if (NOISE.tags.has(el.name)) return true;
  const a = el.attribs;
  if (a.class !== undefined && someToken(a.class, hasNoiseClass)) return true;
  if (a.typeof !== undefined && someToken(a.typeof, hasNoiseTypeof)) return true;
  if (a.role !== undefined && NOISE.roles.has(a.role)) return true;
  if (a.id !== undefined && NOISE.ids.has(a.id)) return true;
  if (a.style !== undefined && isHiddenStyle(a.style)) return true;
  if (el.name === 'a' && a.href !== undefined) return isChromeLink(el, a.href);
  return false;
}

/**
 * A link that is reader help or player chrome rather than content: the "?" of a help link after a
 * name in another script, "Problems playing this file?", or an audio link whose text is only the
 * player's word for it ("listen", "escuchar"): its text would read as part of the sentence.
 */
function isChromeLink(a: Element, href: string): boolean {
  const target = pageTarget(href);
  if (NOISE.linkPrefixes.some((p) => target.startsWith(p))) return true;
  const path = href.toLowerCase();
  if (!NOISE.audioExtensions.some((ext) => path.endsWith(ext))) return false;
  return NOISE.audioLabels.has(rawText(a).trim().toLowerCase());
}

/** The page a wiki link points at, as grammar rules name it: without "./" (Parsoid) or "/wiki/" (skin). */
function pageTarget(href: string): string {
  if (href.startsWith('./')) return href.slice(2);
  return href.startsWith(ARTICLE_PATH) ? href.slice(ARTICLE_PATH.length) : href;
}

/** Pronunciation guides: content in paragraphs, dropped from the abstract (grammar/pronunciation.json). */
export function isPronunciation(el: Element): boolean {
  const a = el.attribs;
  if (a.class !== undefined && someToken(a.class, hasPronunciationClass)) return true;
  if (a.typeof !== undefined && someToken(a.typeof, hasPronunciationTypeof)) return true;
  if (el.name === 'a' && a.href !== undefined) {
    const target = pageTarget(a.href);
    return PRONUNCIATION.linkPrefixes.some((p) => target.startsWith(p));
  }
  return false;
}

export function isInfobox(el: Element): boolean {
  const cls = el.attribs.class;
  return cls !== undefined && someToken(cls, hasInfoboxClass);
}

/** True when one of `el`'s class tokens is in `classes`. */
export function hasClassIn(el: Element, classes: ReadonlySet<string>): boolean {
  const cls = el.attribs.class;
  return cls !== undefined && someToken(cls, (t) => classes.has(t));
}
