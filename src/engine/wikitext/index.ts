/**
 * `parseWikitext`: the engine's second front door. Wikitext of one revision in, the same `Article`
 * shape as `parse` out. Pure and synchronous.
 *
 *   wikitext ─► parseTree (wikiparser-node) ─► BlockWalker (sections, lists, tables, images)
 *            ─► renderer (text, links, citations, infoboxes, description) ─► abstract ─► Article
 *
 * Templates are not expanded: what the wikitext says is used directly, and what only a template
 * would render (Wikidata infobox fields, navboxes …) is absent rather than guessed.
 */
import { z } from 'zod';
import type { Article, Part } from '../../schema/article.js';
import { buildAbstract } from '../abstract.js';
import { resolveCitations } from '../citations.js';
import { InputTooLargeError, InvalidInputError } from '../errors.js';
import { boilerplateTitles } from '../grammar.js';
import { DEFAULT_MAX_INPUT_BYTES } from '../input.js';
import { LEAD_NAME } from '../sections.js';
import { hostOfProject, siteFromUrl } from '../site.js';
import type { Site } from '../site.js';
import type { LeadLine } from '../extracted.js';
import { BlockWalker } from './blocks.js';
import type { LeadBlock } from './blocks.js';
import { infoboxPart } from './infobox.js';
import { titlePath } from './links.js';
import { ReferenceBook } from './references.js';
import { render, stripMarkup } from './render.js';
import type { Scope } from './scope.js';
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
}

export function parseWikitext(wikitext: string, meta: WikitextMeta = {}, options: WikitextOptions = {}): Article {
  if (typeof wikitext !== 'string') {
    const kind = wikitext === null ? 'null' : Array.isArray(wikitext) ? 'an array' : typeof wikitext;
    throw new InvalidInputError(`expected wikitext as a string, got ${kind}`);
  }
  const limit = options.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
  // A UTF-16 unit is at most 3 UTF-8 bytes: the exact count is only needed near the limit.
  if (wikitext.length * 3 > limit) {
    const size = Buffer.byteLength(wikitext, 'utf8');
    if (size > limit) throw new InputTooLargeError(size, limit);
  }
  const info = readMeta(meta);
  const site = siteOf(info);
  const language = info.language ?? site?.language;
  const tree = parseTree(wikitext);
  const refs = new ReferenceBook(tree);
  const scope: Scope = {
    site,
    language,
    title: info.name,
    refs,
    boilerplate: boilerplateTitles(language),
    description: undefined,
    infoboxes: [],
    tables: [],
    embedded: new WeakSet(),
    infoboxFound(t) {
      if (!this.embedded.has(t)) this.infoboxes.push(infoboxPart(t, this, 0));
    },
  };
  refs.attach(scope);

  let sections: Part[] | undefined;
  let abstract: string | undefined;
  if (tree !== undefined) {
    try {
      const walker = new BlockWalker(scope);
      walker.walk(tree.childNodes);
      sections = walker.tree.sections;
      abstract = buildAbstract(leadLines(walker.lead, scope));
    } catch {
      // The tree's accessors are the library's; should one fail on input nobody foresaw, the
      // article degrades to plain text rather than failing with an untyped error.
      sections = undefined;
    }
  }
  if (sections === undefined) {
    sections = plainSections(wikitext);
    abstract = sections[0]?.has_parts?.map((p) => p.value).join('\n');
    scope.infoboxes.length = 0;
    scope.tables.length = 0;
    refs.references.length = 0;
    scope.description = undefined;
  }
  resolveCitations([sections, scope.infoboxes], refs.references);

  const out: Partial<Article> = {};
  if (info.name !== undefined) out.name = info.name;
  if (info.identifier !== undefined) out.identifier = info.identifier;
  if (abstract !== undefined && abstract.length > 0) out.abstract = abstract;
  if (scope.description !== undefined) out.description = scope.description;
  const url = info.url ?? (site !== undefined && info.name !== undefined ? `${site.articleBase}${titlePath(info.name)}` : undefined);
  if (url !== undefined) out.url = url;
  if (info.dateModified !== undefined) out.date_modified = info.dateModified;
  if (info.revision !== undefined) out.version = { identifier: info.revision };
  const project = info.project ?? site?.project;
  if (project !== undefined) out.is_part_of = site === undefined ? { identifier: project } : { identifier: project, url: site.origin };
  if (language !== undefined) out.in_language = { identifier: language };
  if (info.namespace !== undefined) out.namespace = { identifier: info.namespace };
  return { ...out, sections, infoboxes: scope.infoboxes, tables: scope.tables, references: refs.references };
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

/** The lead rendered for the abstract, the same line shapes as the HTML front door's. */
function leadLines(lead: readonly LeadBlock[], scope: Scope): LeadLine[] {
  return lead.map((block) => ('list' in block ? block : { text: render(scope, block.paragraph, { abstract: true, collect: false }).value }));
}

/** When the parser gave up: the text without any markup, one paragraph per blank-line block. */
function plainSections(wikitext: string): Part[] {
  const lead: Part = { name: LEAD_NAME, type: 'section' };
  const paragraphs: Part[] = [];
  for (const block of wikitext.split(/\n\s*\n/)) {
    const value = stripMarkup(block.replace(/[[\]{}<>|]/g, ' ')).replace(/\s+/g, ' ').trim();
    if (value.length > 0) paragraphs.push({ type: 'paragraph', value });
  }
  if (paragraphs.length > 0) lead.has_parts = paragraphs;
  return [lead];
}
