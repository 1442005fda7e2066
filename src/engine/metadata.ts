/**
 * What the document itself says about the article. Parsoid HTML carries it in <head>
 * (Specs/HTML §Headers: mw:pageId, dc:isVersionOf, dc:modified, <base>, the revision in
 * <html about>); skin-rendered pages carry it in the RLCONF script and <link rel=canonical>.
 * Nothing is guessed: a field the document does not carry stays undefined.
 */
import type { Document, Element } from './dom.js';
import { attr, childNodes, findFirst, isElement, isText, rawText, tagName, textOf } from './dom.js';
import { ARTICLE_PATH, DOCUMENT, escapeRegExp } from './grammar.js';
import type { Site } from './site.js';
import { siteFromUrl } from './site.js';

export interface DocumentMeta {
  name?: string;
  identifier?: number;
  url?: string;
  revision?: number;
  dateModified?: string;
  language?: string;
  wikidataItem?: string;
  /** MediaWiki namespace number; 0 is the article namespace. */
  namespace?: number;
  site?: Site;
  /** Parsoid HTML (as opposed to a skin-rendered page). */
  parsoid: boolean;
}

const { head: HEAD, config: CONFIG, jsonLd: JSON_LD, pageTitle: PAGE_TITLE } = DOCUMENT;
const PARSOID_PROPERTIES = new Set(HEAD.parsoid.map((r) => r.match));

export function readDocumentMeta(doc: Document): DocumentMeta {
  const html = findFirst(doc, (e) => tagName(e) === 'html');
  const head = html === undefined ? undefined : findChild(html, 'head');
  const meta: DocumentMeta = { parsoid: false };
  let base: string | undefined;
  let canonical: string | undefined;
  let title: string | undefined;
  let rlconf: string | undefined;
  const about = html === undefined ? undefined : attr(html, 'about');
  if (about !== undefined) {
    const at = about.indexOf(DOCUMENT.revisionInAbout.match);
    const digits = at < 0 ? null : /^\d+/.exec(about.slice(at + DOCUMENT.revisionInAbout.match.length));
    const revision = digits === null ? undefined : toInt(digits[0]);
    if (revision !== undefined) meta.revision = revision;
  }
  for (const el of head === undefined ? [] : childNodes(head)) {
    if (!isElement(el)) continue;
    switch (tagName(el)) {
      case 'meta': {
        const property = attr(el, 'property');
        const content = attr(el, 'content');
        if (property === HEAD.pageId.match && content !== undefined) {
          const id = toInt(content);
          if (id !== undefined) meta.identifier = id;
        }
        else if (property === HEAD.modified.match && content !== undefined) meta.dateModified = isoSeconds(content);
        else if (property === HEAD.namespace.match && content !== undefined) {
          const ns = toInt(content);
          if (ns !== undefined) meta.namespace = ns;
        }
        else if (property !== undefined && PARSOID_PROPERTIES.has(property)) meta.parsoid = true;
        else if (attr(el, 'http-equiv') === HEAD.language.match && content !== undefined) meta.language = content;
        break;
      }
      case 'link': {
        const rel = attr(el, 'rel');
        const href = attr(el, 'href');
        if (rel === HEAD.versionOf.match && href !== undefined) meta.url = https(href);
        else if (rel === HEAD.canonical.match && href !== undefined) canonical = https(href);
        break;
      }
      case 'base':
        // The first <base href> is the document's base URL (HTML §4.2.3).
        base ??= attr(el, 'href');
        break;
      case 'title':
        title = rawText(el).trim();
        break;
      case 'script':
        if (rlconf === undefined) {
          // rawText skips script bodies (they are never content), so read the text child directly.
          const text = scriptText(el);
          if (text.includes(CONFIG.marker.match)) rlconf = text;
        }
        break;
    }
  }
  if (rlconf !== undefined) readRlconf(rlconf, meta);
  // A skin page states its last edit only in the body: the schema.org JSON-LD block the skin
  // writes (exact, UTC) and the footer line (localised prose, local time), so the JSON-LD is read.
  if (!meta.parsoid && meta.dateModified === undefined) {
    const modified = jsonLdDateModified(doc);
    if (modified !== undefined) meta.dateModified = modified;
  }
  if (meta.url === undefined && canonical !== undefined) meta.url = canonical;
  const siteUrl = base ?? meta.url;
  const site = siteUrl === undefined ? undefined : siteFromUrl(siteUrl);
  if (site !== undefined) meta.site = site;
  if (meta.name === undefined) {
    // The page URL names the page; Parsoid's <title> is the *display* title, which may carry
    // markup ("<i>Monday Night Football</i>") or other casing, so it is only the fallback. A skin
    // page saved without its config script and canonical link still shows its title: in the
    // first heading, else in <title> before the site name.
    const fromUrl = meta.url === undefined ? undefined : titleFromUrl(meta.url);
    const display = meta.parsoid ? (title ?? '').replace(/<[^>]*>/g, '').trim() : skinTitle(doc, title ?? '');
    const name = fromUrl ?? (display.length > 0 ? display : undefined);
    if (name !== undefined) meta.name = name;
  }
  if (meta.language === undefined) {
    const lang = (html === undefined ? undefined : attr(html, 'lang')) ?? site?.language;
    if (lang !== undefined && lang.length > 0) meta.language = lang;
  }
  return meta;
}

const numberEntry = (key: { match: string }): RegExp => new RegExp(`"${escapeRegExp(key.match)}":(\\d+)`);
const stringEntry = (key: { match: string }): RegExp => new RegExp(`"${escapeRegExp(key.match)}":"((?:[^"\\\\]|\\\\.)*)"`);

/** The mw.config entries read, compiled once: their keys are fixed grammar values. */
const RLCONF = {
  pageId: numberEntry(CONFIG.pageId),
  revision: CONFIG.revision.map(numberEntry),
  title: stringEntry(CONFIG.title),
  namespaceName: stringEntry(CONFIG.namespaceName),
  language: stringEntry(CONFIG.language),
  namespace: numberEntry(CONFIG.namespace),
  wikidataItem: stringEntry(CONFIG.wikidataItem),
};

/** mw.config values of rendered pages: only scalar values read by exact key. */
function readRlconf(script: string, meta: DocumentMeta): void {
  const num = (entry: RegExp): number | undefined => {
    const m = entry.exec(script);
    return m === null ? undefined : toInt(m[1]!);
  };
  const str = (entry: RegExp): string | undefined => {
    const m = entry.exec(script);
    if (m === null) return undefined;
    try {
      return JSON.parse(`"${m[1]}"`) as string;
    } catch {
      return undefined;
    }
  };
  const id = num(RLCONF.pageId);
  if (id !== undefined && id > 0) meta.identifier = id;
  let rev: number | undefined;
  for (const entry of RLCONF.revision) if ((rev = num(entry)) !== undefined) break;
  if (rev !== undefined && rev > 0) meta.revision = rev;
  const title = str(RLCONF.title);
  const nsName = str(RLCONF.namespaceName);
  if (title !== undefined) meta.name = nsName !== undefined && nsName.length > 0 ? `${nsName}:${title}` : title;
  const lang = str(RLCONF.language);
  if (lang !== undefined) meta.language = lang;
  const ns = num(RLCONF.namespace);
  if (ns !== undefined) meta.namespace = ns;
  const item = str(RLCONF.wikidataItem);
  if (item !== undefined) meta.wikidataItem = item;
}

/** A skin page's displayed title: its first heading's text, else its <title> without the site name. */
function skinTitle(doc: Document, title: string): string {
  const heading = findFirst(doc, (e) => tagName(e) === 'h1' && attr(e, 'id') === PAGE_TITLE.headingId.match);
  const shown = heading === undefined ? '' : rawText(heading).replace(/\s+/g, ' ').trim();
  if (shown.length > 0) return shown;
  let cut = -1;
  for (const { match } of PAGE_TITLE.separators) cut = Math.max(cut, title.lastIndexOf(match));
  return (cut > 0 ? title.slice(0, cut) : title).trim();
}

/** `dateModified` of the page's `<script type="application/ld+json">`, when it is a valid date. */
function jsonLdDateModified(doc: Document): string | undefined {
  const script = findFirst(doc, (e) => tagName(e) === 'script' && attr(e, 'type') === JSON_LD.scriptType.match);
  if (script === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(scriptText(script));
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null) return undefined;
  const value = (data as Record<string, unknown>)[JSON_LD.dateModified.match];
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return undefined;
  return isoSeconds(value);
}

function scriptText(el: Element): string {
  let text = '';
  for (const c of childNodes(el)) if (isText(c)) text += textOf(c);
  return text;
}

function findChild(el: Element, name: string): Element | undefined {
  for (const c of childNodes(el)) if (isElement(c) && tagName(c) === name) return c;
  return undefined;
}

function https(href: string): string {
  if (href.startsWith('//')) return `https:${href}`;
  if (href.startsWith('http://')) return `https://${href.slice(7)}`;
  return href;
}

function toInt(s: string): number | undefined {
  const n = Number.parseInt(s, 10);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** "2022-12-14T13:32:43.000Z" → "2022-12-14T13:32:43Z", the form the Enterprise APIs use. */
function isoSeconds(s: string): string {
  return s.replace(/\.000Z$/, 'Z');
}

/** The title in a page URL: what follows the article path, up to a query or fragment. */
function titleFromUrl(url: string): string | undefined {
  const at = url.indexOf(ARTICLE_PATH);
  if (at < 0) return undefined;
  const rest = url.slice(at + ARTICLE_PATH.length);
  const end = rest.search(/[?#]/);
  const path = end < 0 ? rest : rest.slice(0, end);
  if (path.length === 0) return undefined;
  try {
    return decodeURIComponent(path).replace(/_/g, ' ');
  } catch {
    return path.replace(/_/g, ' ');
  }
}
