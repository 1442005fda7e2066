/**
 * `parse`: one article in, one Article out. Pure and synchronous.
 *
 *   input ─► readInput ─► parseHtml ─► readDocumentMeta ─► extract (sections.ts)
 *         ─► assembleArticle (article.ts: references, citations, abstract, metadata) ─► Article
 *
 * Each step lives in its own module and is tested on its own; this module is the HTML front door
 * (`readHtml`) and the assembly shared with the wikitext door.
 */
import type { Article, Part } from '../schema/article.js';
import { assembleArticle } from './article.js';
import type { ArticleFields, FrontDoorResult } from './article.js';
import { WorkBudget } from './budget.js';
import { createContext } from './context.js';
import type { Document, Element } from './dom.js';
import { attr, childNodes, findAll, findFirst, hasClass, isElement, tagName, withDocument } from './dom.js';
import { envelopeMeta } from './envelope.js';
import type { Envelope } from './envelope.js';
import { DEFAULT_MAX_INPUT_BYTES, readInput } from './input.js';
import type { Source } from './input.js';
import type { DocumentMeta } from './metadata.js';
import { readDocumentMeta } from './metadata.js';
import { DOCUMENT } from './grammar.js';
import { extract } from './sections.js';
import { siteFromUrl } from './site.js';
import { sourceMarker } from './source-positions.js';

export interface ParseOptions {
  /** Inputs larger than this many UTF-8 bytes are refused with InputTooLargeError. Default 32 MiB. */
  maxInputBytes?: number;
  /** Add a `source` hint to each block-level Part: the element it came from (source-positions.ts). */
  sourcePositions?: boolean;
}

export type ParseInput = string | Envelope | Record<string, unknown>;

export function parse(input: ParseInput, options: ParseOptions = {}): Article {
  const { extracted, meta } = readHtml(readInput(input, options.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES), options);
  return assembleArticle(extracted, meta);
}

/**
 * The HTML front door: checked input (./input.ts) → what the body holds plus the page's metadata.
 * The envelope's fields, when there is one, win over the document head's.
 */
export function readHtml(source: Source, options: Pick<ParseOptions, 'sourcePositions'> = {}): FrontDoorResult {
  return withDocument(source.html, (doc) => readDocument(doc, source, options));
}

function readDocument(doc: Document, source: Source, options: Pick<ParseOptions, 'sourcePositions'>): FrontDoorResult {
  const meta = readDocumentMeta(doc);
  const envelope = source.envelope === undefined ? undefined : envelopeMeta(source.envelope);
  // The envelope knows the project even when the HTML carries no <base>.
  const site =
    meta.site ??
    (envelope?.is_part_of?.url !== undefined ? siteFromUrl(envelope.is_part_of.url) : undefined) ??
    (envelope?.url !== undefined ? siteFromUrl(envelope.url) : undefined);
  const language = envelope?.in_language?.identifier ?? meta.language;
  const budget = WorkBudget.of(source.html);
  const ctx = createContext(site, language, options.sourcePositions === true ? sourceMarker(doc) : undefined, budget);
  const extracted = extract(contentRoot(doc, meta.parsoid), ctx);
  budget.extracted(extracted);
  return { extracted, meta: { fields: { ...documentFields(meta), ...envelope }, site, language } };
}

function documentFields(meta: DocumentMeta): ArticleFields {
  const out: ArticleFields = {};
  if (meta.name !== undefined) out.name = meta.name;
  if (meta.identifier !== undefined) out.identifier = meta.identifier;
  if (meta.url !== undefined) out.url = meta.url;
  if (meta.revision !== undefined) out.version = { identifier: meta.revision };
  if (meta.dateModified !== undefined) out.date_modified = meta.dateModified;
  if (meta.namespace !== undefined) out.namespace = { identifier: meta.namespace };
  if (meta.wikidataItem !== undefined) {
    out.main_entity = { identifier: meta.wikidataItem, url: `${DOCUMENT.entityUrl.match}${meta.wikidataItem}` };
  }
  return out;
}

/**
 * The content root, by the page's structure: a skin page holds the article in the
 * `.mw-parser-output` under `#mw-content-text` (other `.mw-parser-output` divs exist before it, e.g.
 * the page-status indicators of `.mw-indicators`); Parsoid HTML holds it in <body>. A bare
 * rendered fragment (action=parse output) has only its own `.mw-parser-output`.
 */
function contentRoot(doc: Document, parsoid: boolean): Element {
  const body = findFirst(doc, (e) => tagName(e) === 'body');
  if (!parsoid) {
    const { textId, outputClass, indicatorsClass } = DOCUMENT.contentRoot;
    const text = findFirst(doc, (e) => attr(e, 'id') === textId.match);
    const output = text === undefined ? undefined : childNodes(text).find((c): c is Element => isElement(c) && hasClass(c, outputClass.match));
    if (output !== undefined) return output;
    if (text !== undefined) return text;
    // Outermost matches only, in document order: an indicator's own parser output is passed over.
    const outer = findAll(doc, (e) => hasClass(e, indicatorsClass.match) || hasClass(e, outputClass.match));
    const fragment = outer.find((e) => !hasClass(e, indicatorsClass.match));
    if (fragment !== undefined) return fragment;
  }
  if (body !== undefined) return body;
  return doc as unknown as Element;
}

export type { Part };
