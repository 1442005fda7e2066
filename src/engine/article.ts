/**
 * The one back half: what a front door extracted (./extracted.ts) plus what is known about the page
 * from outside its body → the Article. Both front doors (HTML in ./parse.ts, wikitext in
 * ./wikitext/index.ts) end here, so precedence, derivations and key order cannot drift apart.
 *
 *   references deduplicated ─► citations resolved against them ─► metadata fields (authoritative)
 *   ─► description, abstract, is_part_of, in_language where the fields lack them ─► stable key order
 */
import type { Article } from '../schema/article.js';
import { buildAbstract } from './abstract.js';
import { resolveCitations, uniqueReferences } from './reference/build.js';
import type { Extracted } from './extracted.js';
import type { Site } from './site.js';

/** The Article's metadata fields: everything but the body-derived parts. */
export type ArticleFields = Omit<Article, 'sections' | 'infoboxes' | 'tables' | 'references' | 'abstract'>;

/** What is known about the page apart from its body. */
export interface ArticleMeta {
  /**
   * Fields from the document head, the caller's meta or an envelope, already merged in the
   * caller's precedence. Each one given wins over anything derived here: an envelope's
   * description over the body's short description, its is_part_of over the site's.
   */
  fields: ArticleFields;
  /** The wiki the page is from: the url of is_part_of, and its project unless `project` says. */
  site?: Site | undefined;
  /** The project code when known apart from the site (wikitext meta); defaults to the site's. */
  project?: string | undefined;
  /** The page's language: in_language when the fields lack it. */
  language?: string | undefined;
}

/** What a front door hands the back half. */
export interface FrontDoorResult {
  extracted: Extracted;
  meta: ArticleMeta;
}

export function assembleArticle(extracted: Extracted, meta: ArticleMeta): Article {
  const { sections, infoboxes, tables } = extracted;
  // A reference reused by name is listed once per use on some pages; keep the first.
  const references = uniqueReferences(extracted.references);
  resolveCitations([sections, infoboxes], references);
  const article: Article = { ...meta.fields, sections, infoboxes, tables, references };
  if (article.description === undefined && extracted.description !== undefined) article.description = extracted.description;
  const abstract = buildAbstract(extracted.lead);
  if (abstract !== undefined) article.abstract = abstract;
  const project = meta.project ?? meta.site?.project;
  if (article.is_part_of === undefined && project !== undefined) {
    article.is_part_of = meta.site === undefined ? { identifier: project } : { identifier: project, url: meta.site.origin };
  }
  if (article.in_language === undefined && meta.language !== undefined) article.in_language = { identifier: meta.language };
  return orderFields(article);
}

const ORDER: (keyof Article)[] = [
  'name', 'identifier', 'abstract', 'description', 'url', 'date_created', 'date_modified', 'version',
  'main_entity', 'additional_entities', 'is_part_of', 'in_language', 'namespace', 'image', 'license',
  'sections', 'infoboxes', 'tables', 'references',
];

/** Stable key order, whatever the door and the precedence, so that output diffs and snapshots are readable. */
function orderFields(a: Article): Article {
  const out: Record<string, unknown> = {};
  for (const k of ORDER) if (a[k] !== undefined) out[k] = a[k];
  return out as Article;
}
