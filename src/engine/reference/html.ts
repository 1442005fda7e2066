/**
 * Reference lists → `Article.references`. Parsoid renders `<references/>` as
 * `ol.mw-references[typeof~="mw:Extension/references"]` with one `li#cite_note-…` per entry and
 * the group in `data-mw-group` (Specs/HTML §Cite); rendered pages as `ol.references`.
 * The bibliographic `metadata` comes from the citation template's data-mw (its parameters mapped
 * to CS1's names, the template's own kept in `template`), or else from the entry's COinS span
 * (`span.Z3988`, see coins.ts). The type: a template the grammar knows, else the class of the
 * CS1 `cite` element, else a "Cite …" template's name, else the COinS genre, else "text".
 */
import type { Reference } from '../../schema/article.js';
import type { AnyNode, Element, ParentNode, ReferenceIndexes } from '../dom.js';
import { attr, childNodes, elementsWithId, findAll, findFirst, forEachElement, hasAnyToken, hasToken, isDocument, isElement, parentOf, rawText, referenceIndexes, rootOf, someToken, tagName } from '../dom.js';
import type { Context } from '../context.js';
import { dataMwOf } from '../data-mw.js';
import { GRAMMAR } from '../grammar/load.js';
import { citationMetadata, isKnownCitationTemplate, plainValues } from '../citation-metadata.js';
import { readCoins } from '../coins.js';
import { citationType, COINS, REFERENCE_LISTS } from '../grammar.js';
import { inline } from '../inline.js';
import type { Inline } from '../inline.js';
import { decodeFragment } from '../site.js';
import { isTransclusion, templateCalls } from '../transclusion.js';

// The grammar's tokens are few: each is looked for in place (hasAnyToken allocates nothing), which
// matters in the element-by-element searches of every entry.
const LIST_CLASSES = [...REFERENCE_LISTS.classes];
const LIST_TYPEOFS = [...REFERENCE_LISTS.typeofs];
const ENTRY_TEXT_CLASSES = [...REFERENCE_LISTS.entryTextClasses];
const CITE_CLASS = GRAMMAR.citations.classes.match;
const ANCHOR = REFERENCE_LISTS.shortFootnoteAnchor;

export function isReferenceList(el: Element): boolean {
  if (tagName(el) !== 'ol') return false;
  return hasAnyToken(attr(el, 'typeof'), LIST_TYPEOFS) || hasAnyToken(attr(el, 'class'), LIST_CLASSES);
}

/** Every reference list below `root` (inclusive), in document order. */
export function referenceListsIn(root: Element): Element[] {
  if (isReferenceList(root)) return [root];
  return findAll(root, isReferenceList);
}

export function readReferenceList(ol: Element, ctx: Context): Reference[] {
  const group = groupOf(ol);
  const out: Reference[] = [];
  for (const li of childNodes(ol)) {
    if (!isElement(li) || tagName(li) !== 'li') continue;
    const identifier = attr(li, 'id');
    if (identifier === undefined || identifier.length === 0) continue;
    out.push(readEntry(li, identifier, group, ctx));
  }
  return out;
}

function groupOf(ol: Element): string | undefined {
  const group = attr(ol, 'data-mw-group');
  if (group !== undefined && group.length > 0) return group;
  const g = dataMwOf(ol)?.attrs.group;
  if (g !== undefined && g.length > 0) return g;
  // A Parsoid list without a group is the default group; only a skin page's list, which Parsoid
  // never marked, states its group: by the class of the template's wrapper around it, or by the
  // text of the markers that point into it ("[note 1]").
  return hasAnyToken(attr(ol, 'typeof'), LIST_TYPEOFS) ? undefined : (wrapperGroup(ol) ?? markerGroup(ol));
}

/** The group named by the in-text marker of the list's first entry, on a skin page. */
function markerGroup(ol: Element): string | undefined {
  const first = childNodes(ol).find((c): c is Element => isElement(c) && tagName(c) === 'li' && (attr(c, 'id') ?? '').length > 0);
  if (first === undefined) return undefined;
  const marker = markerOf(ol, attr(first, 'id')!);
  if (marker === undefined) return undefined;
  return REFERENCE_LISTS.groupMarker.exec(rawText(marker).trim())?.[1];
}

const MAX_MARKER_SEARCHES = 16;

/**
 * The first link in the document to the anchor `id` (a marker links to its entry's id), before
 * `list`. The walk stops at the marker or at the list: indexing every in-page link of a page instead
 * cost a whole-document walk and an array per skin page.
 */
function markerOf(list: Element, id: string): Element | undefined {
  const root = rootOf(list);
  // Each search walks the document up to its list: past a few lists per page (real pages have up
  // to four), a hostile page of thousands would make that quadratic. Their groups stay unnamed.
  const indexes = indexesOf(root);
  if (indexes.markerSearches >= MAX_MARKER_SEARCHES) return undefined;
  indexes.markerSearches++;
  // The list itself ends the search: its markers come before it.
  const found = findFirst(root, (x) => {
    if (x === list) return true;
    const href = tagName(x) === 'a' ? attr(x, 'href') : undefined;
    return href !== undefined && href.charCodeAt(0) === 35 /* # */ && decodeFragment(href.slice(1)) === id;
  });
  return found === list ? undefined : found;
}

/** Levels above a skin page's list where the wrapper can be: ol < div.mw-references-wrap < div.reflist. */
const WRAPPER_LEVELS = 3;

function wrapperGroup(ol: Element): string | undefined {
  let el = parentOf(ol);
  for (let level = 0; level < WRAPPER_LEVELS && el !== null && !isDocument(el); level++, el = parentOf(el)) {
    let group: string | undefined;
    someToken(attr(el, 'class'), (t) => (group = REFERENCE_LISTS.wrapperGroups.get(t)) !== undefined);
    if (group !== undefined) return group;
  }
  return undefined;
}

function readEntry(li: Element, identifier: string, group: string | undefined, ctx: Context): Reference {
  const body = findFirst(li, (e) => hasAnyToken(attr(e, 'class'), ENTRY_TEXT_CLASSES)) ?? li;
  const text = inline(body, ctx);
  const reference: Reference = { identifier, group: group ?? null, type: 'text', metadata: {}, text: { value: text.value } };
  if (text.links.length > 0) reference.text.links = text.links;
  // A note ({{efn}}, <ref group="note">) that cites a reference of its own points at it; the
  // first marker is the note's source, as the production replies have it.
  const parent = text.citations.find((c) => c.identifier !== identifier);
  if (parent !== undefined) reference.parent_reference = parent.identifier;
  const parts = entryParts(li, body);
  const source = shortFootnoteSource(parts.footnoteLinks, ctx);
  if (source !== undefined) reference.source = source;

  // The type the HTML states: CS1's `<cite class="citation web cs1">`.
  const cite = parts.cite;
  const stated = cite === undefined ? undefined : citationTypeOfClass(attr(cite, 'class') ?? '');
  for (const el of parts.transclusions) {
    for (const call of templateCalls(el)) {
      const type = citationType(call.name, ctx.site?.language ?? documentLanguage(li));
      if (type === undefined) continue;
      // A template the grammar names decides; one known only by its "Cite …" prefix (a wrapper
      // such as {{Cite ODNB}}) yields to the class its output carries.
      reference.type = isKnownCitationTemplate(call.name) ? type : (stated ?? type);
      // data-mw holds each parameter as wikitext ("[[Le Monde]]", "''Poetics''"): the metadata
      // is plain text, as the wikitext front door renders it; `template` keeps what was written.
      reference.metadata = plainValues(citationMetadata(call.name, call.params, type));
      reference.template = { name: call.name, parameters: call.params };
      return reference;
    }
  }
  const title = parts.coins === undefined ? undefined : attr(parts.coins, 'title');
  const fromCoins = title === undefined ? undefined : readCoins(title);
  // CS1 leaves some markup in its COinS values (`<span class="nowrap">`, `&#124;`): text only.
  if (fromCoins !== undefined) reference.metadata = plainValues(fromCoins.metadata);
  reference.type = stated ?? fromCoins?.type ?? 'text';
  return reference;
}

/** What readEntry looks for below an entry's `li`, found in one walk (not one walk each). */
interface EntryParts {
  /** The first CS1 `cite` element. */
  cite: Element | undefined;
  /** Transclusions holding a data-mw, outermost only. */
  transclusions: Element[];
  /** The first COinS span. */
  coins: Element | undefined;
  /** Links to a `#CITEREF…` anchor below the entry's text element `body`, outermost only. */
  footnoteLinks: Element[];
}

const FOOTNOTE_HREF = `#${ANCHOR}`;

function entryParts(li: Element, body: Element): EntryParts {
  const parts: EntryParts = { cite: undefined, transclusions: [], coins: undefined, footnoteLinks: [] };
  forEachElement(li, (e) => {
    if (parts.cite === undefined && tagName(e) === 'cite' && hasToken(attr(e, 'class'), CITE_CLASS)) parts.cite = e;
    if (parts.coins === undefined && hasToken(attr(e, 'class'), COINS.spanClass)) parts.coins = e;
    if (attr(e, 'data-mw') !== undefined && isTransclusion(e) && !below(e, parts.transclusions, li)) parts.transclusions.push(e);
    if (tagName(e) === 'a' && e !== body && attr(e, 'href') !== undefined && attr(e, 'href')!.includes(FOOTNOTE_HREF) && inBody(e, body, li, parts.footnoteLinks)) {
      parts.footnoteLinks.push(e);
    }
  });
  return parts;
}

/** `el` lies inside one of `found` (elements between `el` and `top`): searches do not descend into a match. */
function below(el: Element, found: readonly Element[], top: Element): boolean {
  if (found.length === 0) return false;
  for (let n = parentOf(el); n !== null && n !== top; n = parentOf(n)) if (found.includes(n as Element)) return true;
  return false;
}

/** `link` lies below `body` (any element of the entry when `body` is the `li`) and inside no earlier match. */
function inBody(link: Element, body: Element, li: Element, found: readonly Element[]): boolean {
  if (body === li) return !below(link, found, li);
  for (let n = parentOf(link); n !== null && n !== li; n = parentOf(n)) {
    if (n === body) return true;
    if (found.includes(n as Element)) return false;
  }
  return false;
}

/**
 * A short footnote ({{sfn}}, {{harvnb}}: "Glick 1987, p. 5") links to the full citation by the
 * `#CITEREF…` anchor CS1 puts on its `<cite id>` in the bibliography; that citation is the
 * footnote's source. The anchors are indexed once per document (a page may hold thousands).
 */
function shortFootnoteSource(links: readonly Element[], ctx: Context): Reference['source'] {
  for (const a of links) {
    const href = attr(a, 'href')!;
    const target = anchorsOf(rootOf(a)).get(decodeFragment(href.slice(href.indexOf('#') + 1)));
    if (target === undefined) continue;
    const text = sourceText(target, ctx);
    if (text.value.length === 0) continue;
    // Each reference gets its own list; the links themselves are never changed once made.
    return text.links.length > 0 ? { value: text.value, links: [...text.links] } : { value: text.value };
  }
  return undefined;
}

/**
 * The text of a full citation that short footnotes point at, read once per citation: a page's
 * {{sfn}}s cite the same few books dozens of times each ("Glick 1987, p. 5", "Glick 1987, p. 9").
 */
function sourceText(target: Element, ctx: Context): Pick<Inline, 'value' | 'links'> {
  const sourceTexts = indexesOf(rootOf(target)).sourceTexts;
  const known = sourceTexts.get(target);
  if (known !== undefined && known.ctx === ctx) return known.text;
  const text = inline(target, ctx);
  sourceTexts.set(target, { ctx, text });
  return text;
}

/**
 * The document's indexes (dom-nodes.ts ReferenceIndexes), kept on the parsed document; a tree
 * that is none (a detached fragment: never what `parse` reads) gets a fresh set each time.
 */
function indexesOf(root: AnyNode): ReferenceIndexes {
  return isDocument(root) ? referenceIndexes(root, noIndexes) : noIndexes();
}

const noIndexes = (): ReferenceIndexes => ({ anchors: undefined, sourceTexts: new Map(), markerSearches: 0 });

/**
 * The wiki's language where the page names no site (a saved copy with a relative <base>): the
 * nearest `lang` above the list (Parsoid puts the content language on <body>). Templates are
 * per wiki, and so is their type.
 */
function documentLanguage(el: Element): string | undefined {
  for (let n: ParentNode | null = el; n !== null && !isDocument(n); n = parentOf(n)) {
    const lang = attr(n, 'lang');
    if (lang !== undefined && lang.length > 0) return lang;
  }
  return undefined;
}

/** The `CITEREF…` anchors of the tree under `root` by id, indexed once per document. */
function anchorsOf(root: AnyNode): Map<string, Element> {
  const indexes = indexesOf(root);
  if (indexes.anchors !== undefined) return indexes.anchors;
  const anchors = new Map<string, Element>();
  for (const e of anchorElements(root)) if (!anchors.has(attr(e, 'id')!)) anchors.set(attr(e, 'id')!, e);
  indexes.anchors = anchors;
  return anchors;
}

const isAnchor = (x: Element): boolean => (attr(x, 'id') ?? '').startsWith(ANCHOR);

/**
 * The elements whose id is a `CITEREF…` anchor, outermost only, in document order: from the
 * builder's list of elements with an id (dom.ts `elementsWithId`), which spares a walk of the
 * whole tree per page; the walk remains for a tree that is no parsed document.
 */
function anchorElements(root: AnyNode): Element[] {
  if (!isDocument(root)) return findAll(root, isAnchor);
  const out: Element[] = [];
  const found = new Set<AnyNode>();
  for (const e of elementsWithId(root)) {
    if (!isAnchor(e)) continue;
    found.add(e);
    // findAll does not descend into a match: an anchor inside another is not listed.
    let inside = false;
    for (let n = parentOf(e); n !== null && !inside; n = parentOf(n)) inside = found.has(n);
    if (!inside) out.push(e);
  }
  return out;
}

const citeClasses = new Map(Object.entries(GRAMMAR.citations.classes.map));

/** Reference.type from a CS1 `cite` element's classes ("citation web cs1" → "web"). */
export function citationTypeOfClass(classes: string): string | undefined {
  const tokens = classes.split(/\s+/);
  if (!tokens.includes(GRAMMAR.citations.classes.match)) return undefined;
  for (const token of tokens) {
    const type = citeClasses.get(token.toLowerCase());
    if (type !== undefined) return type;
  }
  return undefined;
}

