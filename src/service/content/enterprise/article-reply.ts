/**
 * A stored article in the Enterprise Article model (/v2/articles): the envelope metadata it was
 * delivered with, cleaned to the model, completed from the store's columns where the envelope
 * said nothing (a bare HTML import has no metadata at all), and its body as stored.
 */
import type { z } from 'zod';
import { hostOfProject, type PageLinks } from '../../../index.js';
import { ENGINE_VERSION } from '../engine-version.js';
import type { SourceRow } from '../store.js';
import { EnterpriseArticleModel, type EnterpriseArticle } from './models.js';

const SHAPE = EnterpriseArticleModel.shape;
type Key = keyof typeof SHAPE;
const KEYS = Object.keys(SHAPE) as Key[];

/**
 * Whether the stored metadata lacks a list of categories or of templates, so that they are read
 * from the HTML instead (ContentService.pageLinks): an Enterprise envelope lists both; a bare
 * Parsoid page or a page fetched from a wiki's REST API has neither.
 */
export function lacksPageLinks(meta: SourceRow['meta']): boolean {
  const listed = (key: 'categories' | 'templates'): boolean => meta[key] !== undefined && SHAPE[key].safeParse(meta[key]).success;
  return !listed('categories') || !listed('templates');
}

/**
 * What to read an article's categories and templates from: its HTML and its wiki's article path
 * (for a page without `<base href>`), or undefined when its metadata lists both or it has no HTML.
 * One rule for the service (ContentService.pageLinks) and the build steps that read them ahead.
 */
export function pageLinksInput(source: { project: string; html?: string | null | undefined; meta: SourceRow['meta'] }): { html: string; base: string | undefined } | undefined {
  if (source.html === undefined || source.html === null || !lacksPageLinks(source.meta)) return undefined;
  const host = hostOfProject(source.project);
  return { html: source.html, base: host === undefined ? undefined : `https://${host}/wiki/` };
}

/** Categories and templates as the row keeps them (`articles.page_links`): with the engine version that read them. */
export function storedPageLinks(links: PageLinks): string {
  return JSON.stringify({ engine: ENGINE_VERSION, ...links });
}

/**
 * The reply for one stored article; keys in the model's order. `links`: the categories and
 * templates read from its HTML, for those its metadata does not list.
 */
export function enterpriseArticle(source: SourceRow, links?: PageLinks): EnterpriseArticle {
  const meta = source.meta;
  // Each member of the metadata is kept only if it fits the model (unknown keys inside are dropped).
  const valid = (key: Key): unknown => {
    const parsed = SHAPE[key].safeParse(meta[key]);
    return parsed.success ? parsed.data : undefined;
  };
  const host = hostOfProject(source.project);
  // Member by member: one malformed member (a `size` of the wrong shape) loses only itself, not
  // the comment, editor and scores beside it.
  const version = validMembers(SHAPE.version, meta['version']);
  const isPartOf = valid('is_part_of') as EnterpriseArticle['is_part_of'] | undefined;
  const derived: Partial<Record<Key, unknown>> = {
    name: valid('name') ?? source.title,
    identifier: valid('identifier') ?? source.page_id ?? undefined,
    url: valid('url') ?? (host === undefined ? undefined : articleUrl(host, source.title)),
    // The stored revision is the truth: the row is keyed on it.
    version: { ...version, identifier: source.revision },
    namespace: valid('namespace') ?? { identifier: 0 },
    categories: valid('categories') ?? nonEmpty(links?.categories),
    templates: valid('templates') ?? nonEmpty(links?.templates),
    in_language: valid('in_language') ?? (source.language === null ? undefined : { identifier: source.language }),
    is_part_of: { ...isPartOf, identifier: source.project, ...(isPartOf?.url === undefined && host !== undefined ? { url: `https://${host}` } : {}) },
    article_body: {
      ...(source.html === null ? {} : { html: source.html }),
      ...(source.wikitext === null ? {} : { wikitext: source.wikitext }),
    },
  };
  const out: Record<string, unknown> = {};
  for (const key of KEYS) {
    const value = key in derived ? derived[key] : valid(key);
    if (value !== undefined) out[key] = value;
  }
  return out as EnterpriseArticle;
}

/** The members of `value` that fit their member schemas of `schema` (unknown keys dropped); undefined when `value` is no object. */
function validMembers(schema: z.ZodObject, value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(schema.shape)) {
    const parsed = (member as z.ZodType).safeParse((value as Record<string, unknown>)[key]);
    if (parsed.success && parsed.data !== undefined) out[key] = parsed.data;
  }
  return out;
}

/** A list read from the HTML, left out when empty, as the Enterprise API leaves out empty lists. */
function nonEmpty<T>(list: T[] | undefined): T[] | undefined {
  return list === undefined || list.length === 0 ? undefined : list;
}

/** The article's URL as MediaWiki writes it: spaces as underscores, the rest percent-encoded except what wfUrlencode keeps. */
export function articleUrl(host: string, title: string): string {
  const path = encodeURIComponent(title.replace(/ /g, '_')).replace(/%(3A|2F|3B|40|24|21|2A|28|29|2C|7E)/gi, (escape) => decodeURIComponent(escape));
  return `https://${host}/wiki/${path}`;
}
