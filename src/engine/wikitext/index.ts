/**
 * `parseWikitext`: the engine's second front door. Wikitext of one revision in, the same `Article`
 * shape as `parse` out. Pure and synchronous.
 *
 *   wikitext ─► parseTree (./syntax: wikiparser-node's stages, ported)
 *            ─► WikitextWalker + WIKITEXT_PRESET (walker.ts, preset.ts, rules/): sections, lists,
 *               tables, images; the renderer (render.ts) gives text, links, blank citations and
 *               what it found (footnote uses, infoboxes, the description), committed to the
 *               collector (../collector.ts)
 *            ─► ReferenceBook.resolve (references.ts): the footnote uses → references, citations filled in
 *            ─► assembleArticle (../article.ts, shared with the HTML door) ─► Article
 *
 * Templates are not expanded: what the wikitext says is used directly, and what only a template
 * would render (Wikidata infobox fields, navboxes …) is absent rather than guessed.
 */
import { z } from 'zod';
import type { Article, Part } from '../../schema/article.js';
import { assembleArticle } from '../article.js';
import type { ArticleFields, FrontDoorResult } from '../article.js';
import { WorkBudget } from '../budget.js';
import { InvalidInputError, WikistructError } from '../errors.js';
import { boilerplateTitles } from '../grammar.js';
import { DEFAULT_MAX_INPUT_BYTES, readWikitextInput } from '../input.js';
import { LEAD_NAME } from '../sections.js';
import { hostOfProject, siteFromUrl } from '../site.js';
import type { Site } from '../site.js';
import type { Extracted } from '../extracted.js';
import { Collector } from '../collector.js';
import { profileForPage } from '../wiki/profile.js';
import type { WikiSite } from '../wiki/profile.js';
import { titlePath } from './links.js';
import { WIKITEXT_PRESET } from './preset.js';
import { ReferenceBook, dropUnresolved } from '../reference/wikitext.js';
import { stripMarkup } from './render.js';
import type { Scope } from './scope.js';
import { WikitextWalker } from './walker.js';
import { parseTree } from './tree.js';

export const WikitextMetaSchema = z.object({
  /** Page title, e.g. "Albert Einstein". */
  name: z.string().optional(),
  /** Page id. */
  identifier: z.number().int().optional(),
  /** Revision id → Article.version.identifier. */
  revision: z.number().int().optional(),
  /** ISO timestamp → date_modified. */
  dateModified: z.string().optional(),
  /** 0 for articles → Article.namespace; any other number marks a non-article page. */
  namespace: z.number().int().optional(),
  /** Project code, e.g. "enwiki" → is_part_of. */
  project: z.string().optional(),
  /** Language code, e.g. "en" → in_language; also selects the boilerplate section titles. */
  language: z.string().optional(),
  /** Article URL; derived from project and name when absent. */
  url: z.string().optional(),
});
/** Every field optional; what is missing is omitted from the Article, never faked. */
export type WikitextMeta = z.infer<typeof WikitextMetaSchema>;

export interface WikitextOptions {
  /** Inputs larger than this many UTF-8 bytes are refused with InputTooLargeError. Default 32 MiB. */
  maxInputBytes?: number;
  /**
   * The page's wiki: a WikiProfile, or a siteinfo (a dump's <siteinfo>, the API's), which wins
   * over the generated per-wiki data (src/engine/wiki/profile.ts `profileForPage`).
   */
  site?: WikiSite | undefined;
}

export function parseWikitext(wikitext: string, meta: WikitextMeta = {}, options: WikitextOptions = {}): Article {
  const { extracted, meta: articleMeta } = readWikitext(wikitext, meta, options);
  return assembleArticle(extracted, articleMeta);
}

/** The wikitext front door: checked input → what the wikitext holds plus the page's metadata. */
export function readWikitext(wikitext: string, meta: WikitextMeta = {}, options: WikitextOptions = {}): FrontDoorResult {
  return readChecked(wikitext, meta, options);
}

function readChecked(wikitext: string, meta: WikitextMeta, options: WikitextOptions): FrontDoorResult {
  readWikitextInput(wikitext, options.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES);
  const info = readMeta(meta);
  const site = siteOf(info);
  const language = info.language ?? site?.language;
  const profile = profileForPage(options.site, info.project, language);
  const tree = parseTree(wikitext, profile);
  const budget = WorkBudget.of(wikitext);
  const scope: Scope = { site, language, profile, title: info.name, budget, boilerplate: boilerplateTitles(language) };

  let extracted: Extracted | undefined;
  if (tree !== undefined) {
    try {
      const out = new Collector();
      const walker = new WikitextWalker(scope, out, WIKITEXT_PRESET);
      walker.walk(tree.childNodes);
      // The pass after the walk: the footnote uses become references, their citations filled in.
      const book = new ReferenceBook(tree, scope);
      out.referenceEntries(book.resolve(walker.uses));
      extracted = out.extracted(walker.tree.sections, scope);
      if (book.unresolved.size > 0) dropUnresolved(extracted, book.unresolved);
    } catch (error) {
      if (error instanceof WikistructError) throw error; // a work limit (budget.ts): refused, not degraded
      // Should a reading of the tree fail on input nobody foresaw, the article degrades to plain
      // text rather than failing with an untyped error.
      extracted = undefined;
    }
  }
  extracted ??= plainText(wikitext);
  budget.extracted(extracted);
  return { extracted, meta: { fields: metaFields(info, site), site, project: info.project, language } };
}

/** The caller's meta in output shape; the url, when not given, is the page's address on its wiki. */
function metaFields(info: WikitextMeta, site: Site | undefined): ArticleFields {
  const out: ArticleFields = {};
  if (info.name !== undefined) out.name = info.name;
  if (info.identifier !== undefined) out.identifier = info.identifier;
  const url = info.url ?? (site !== undefined && info.name !== undefined ? `${site.articleBase}${titlePath(info.name)}` : undefined);
  if (url !== undefined) out.url = url;
  if (info.dateModified !== undefined) out.date_modified = info.dateModified;
  if (info.revision !== undefined) out.version = { identifier: info.revision };
  if (info.namespace !== undefined) out.namespace = { identifier: info.namespace };
  return out;
}

function readMeta(meta: unknown): WikitextMeta {
  if (meta === undefined || meta === null) return {};
  const result = WikitextMetaSchema.safeParse(meta);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue === undefined || issue.path.length === 0 ? 'meta' : `meta.${issue.path.join('.')}`;
  throw new InvalidInputError(`${field}: ${issue?.message ?? 'invalid'}`);
}

function siteOf(meta: WikitextMeta): Site | undefined {
  if (meta.project !== undefined) {
    const host = hostOfProject(meta.project);
    if (host !== undefined) return siteFromUrl(`https://${host}`);
  }
  return meta.url === undefined ? undefined : siteFromUrl(meta.url);
}

/**
 * When the parser gave up: the text without any markup, one paragraph per blank-line block, all
 * of it the lead (so all of it the abstract); nothing else is trusted.
 */
function plainText(wikitext: string): Extracted {
  const lead: Part = { name: LEAD_NAME, type: 'section' };
  const paragraphs: Part[] = [];
  for (const block of wikitext.split(/\n\s*\n/)) {
    const value = stripMarkup(block.replace(/[[\]{}<>|]/g, ' ')).replace(/\s+/g, ' ').trim();
    if (value.length > 0) paragraphs.push({ type: 'paragraph', value });
  }
  if (paragraphs.length > 0) lead.has_parts = paragraphs;
  return { sections: [lead], lead: paragraphs.map((p) => ({ text: p.value! })), infoboxes: [], tables: [], references: [] };
}
