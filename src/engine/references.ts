/**
 * Reference lists → `Article.references`. Parsoid renders `<references/>` as
 * `ol.mw-references[typeof~="mw:Extension/references"]` with one `li#cite_note-…` per entry and
 * the group in `data-mw-group` (Specs/HTML §Cite); rendered pages as `ol.references`.
 * The bibliographic `metadata` comes from the citation template's data-mw, or else from the
 * entry's COinS span (`span.Z3988`, OpenURL key-value pairs).
 */
import type { Reference } from '../schema/article.js';
import type { Element } from './dom.js';
import { findAll, findFirst, hasClass, hasToken, isElement } from './dom.js';
import type { Context } from './context.js';
import { COINS, citationType } from './grammar.js';
import { inline } from './inline.js';
import { isTransclusion, templateCalls } from './transclusion.js';

export function isReferenceList(el: Element): boolean {
  if (el.name !== 'ol') return false;
  return hasClass(el, 'references') || hasClass(el, 'mw-references') || hasToken(el.attribs.typeof, 'mw:Extension/references');
}

/** Every reference list below `root` (inclusive), in document order. */
export function referenceListsIn(root: Element): Element[] {
  if (isReferenceList(root)) return [root];
  return findAll(root, isReferenceList);
}

export function readReferenceList(ol: Element, ctx: Context): Reference[] {
  const group = groupOf(ol);
  const out: Reference[] = [];
  for (const li of ol.children) {
    if (!isElement(li) || li.name !== 'li') continue;
    const identifier = li.attribs.id;
    if (identifier === undefined || identifier.length === 0) continue;
    out.push(readEntry(li, identifier, group, ctx));
  }
  return out;
}

function groupOf(ol: Element): string | undefined {
  const group = ol.attribs['data-mw-group'];
  if (group !== undefined && group.length > 0) return group;
  const raw = ol.attribs['data-mw'];
  if (raw === undefined) return undefined;
  try {
    const g = (JSON.parse(raw) as { attrs?: { group?: unknown } }).attrs?.group;
    return typeof g === 'string' && g.length > 0 ? g : undefined;
  } catch {
    return undefined;
  }
}

function readEntry(li: Element, identifier: string, group: string | undefined, ctx: Context): Reference {
  const body =
    findFirst(li, (e) => hasClass(e, 'mw-reference-text') || hasClass(e, 'reference-text')) ?? li;
  const text = inline(body, ctx);
  const reference: Reference = { identifier, type: 'text', metadata: {}, text: { value: text.value } };
  if (group !== undefined) reference.group = group;
  if (text.links.length > 0) reference.text.links = text.links;

  for (const el of findAll(li, (e) => isTransclusion(e) && e.attribs['data-mw'] !== undefined)) {
    for (const call of templateCalls(el)) {
      const type = citationType(call.name);
      if (type === undefined) continue;
      reference.type = type;
      reference.metadata = call.params;
      return reference;
    }
  }
  const coins = findFirst(li, (e) => hasClass(e, 'Z3988'));
  const title = coins?.attribs.title;
  if (title !== undefined) {
    const { type, metadata } = readCoins(title);
    reference.metadata = metadata;
    if (type !== undefined) reference.type = type;
  }
  return reference;
}

/** OpenURL ContextObject (COinS) → metadata with the citation templates' parameter names. */
export function readCoins(title: string): { type?: string; metadata: Record<string, string> } {
  const metadata: Record<string, string> = {};
  let type: string | undefined;
  let authors = 0;
  for (const pair of title.split('&')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const key = decode(pair.slice(0, eq));
    const value = decode(pair.slice(eq + 1)).trim();
    if (value.length === 0) continue;
    if (key === 'rft_val_fmt') {
      type = COINS.formats.get(value) ?? type;
    } else if (key === 'rft_id') {
      if (/^https?:\/\//.test(value)) metadata.url ??= value;
      else if (value.startsWith('info:doi/')) metadata.doi = value.slice(9);
    } else if (key === 'rft.au') {
      authors++;
      metadata[authors === 1 ? 'author' : `author${authors}`] = value;
    } else {
      const name = COINS.keys.get(key);
      if (name !== undefined && metadata[name] === undefined) metadata[name] = value;
    }
  }
  return type === undefined ? { metadata } : { type, metadata };
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}
