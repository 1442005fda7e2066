/**
 * One `<page>` element of a MediaWiki XML export, read with fast-xml-parser and checked with zod:
 * the id, title, namespace, redirect flag and latest revision (id, timestamp, wikitext).
 */
import { XMLParser } from 'fast-xml-parser';
import { z } from 'zod';
import type { SiteInfo } from './sources/siteinfo.js';
import type { WikitextMeta } from '../index.js';

const TextSchema = z.union([z.string(), z.looseObject({ '#text': z.string().optional() })]);

const RevisionSchema = z.looseObject({
  id: z.string().regex(/^\d+$/).optional(),
  timestamp: z.string().optional(),
  text: TextSchema.optional(),
});

const PageSchema = z.looseObject({
  page: z.looseObject({
    title: z.string(),
    ns: z.string().regex(/^-?\d+$/).optional(),
    id: z.string().regex(/^\d+$/).optional(),
    redirect: z.unknown().optional(),
    // A full-history dump repeats <revision>; the last one is the newest.
    revision: z.union([RevisionSchema, z.array(RevisionSchema).min(1)]),
  }),
});

const CutTitleSchema = z.object({ title: z.string() });

export interface XmlPage {
  wikitext: string;
  namespace: number;
  redirect: boolean;
  meta: WikitextMeta;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  trimValues: false,
  htmlEntities: true,
});

export function readXmlPage(xml: string, site: SiteInfo): XmlPage {
  let raw: unknown;
  try {
    raw = parser.parse(xml, true);
  } catch (error) {
    throw new XmlPageError(`malformed <page> XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = PageSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new XmlPageError(`invalid <page>: field "${issue.path.join('.') || '(root)'}": ${issue.message}`);
  }
  const page = parsed.data.page;
  const revision = Array.isArray(page.revision) ? page.revision[page.revision.length - 1]! : page.revision;
  const text = revision.text;
  const wikitext = text === undefined ? '' : typeof text === 'string' ? text : (text['#text'] ?? '');
  const namespace = page.ns === undefined ? 0 : Number(page.ns);
  const title = page.title.trim();
  const meta: WikitextMeta = { name: title, namespace };
  if (page.id !== undefined) meta.identifier = Number(page.id);
  if (revision.id !== undefined) meta.revision = Number(revision.id);
  if (revision.timestamp !== undefined) meta.dateModified = revision.timestamp;
  if (site.dbname !== undefined) meta.project = site.dbname;
  if (site.language !== undefined) meta.language = site.language;
  if (site.origin !== undefined) meta.url = articleUrl(site.origin, title);
  return { wikitext, namespace, redirect: page.redirect !== undefined, meta };
}

/** A page's URL on its wiki, as MediaWiki writes it: `/wiki/` and the title with underscores, `/` and `:` kept. */
export function articleUrl(origin: string, title: string): string {
  return `${origin}/wiki/${encodeURIComponent(title.replace(/ /g, '_')).replace(/%2F/g, '/').replace(/%3A/g, ':')}`;
}

/**
 * The title of a `<page>` cut off by the end of its dump, when the cut came after `</title>`:
 * the failure of the lost page is then reported under its name.
 */
export function readCutPageTitle(partial: string): string | undefined {
  const match = /<title>[^<]*<\/title>/.exec(partial);
  if (match === null) return undefined;
  const parsed = CutTitleSchema.safeParse(parser.parse(match[0]));
  const title = parsed.success ? parsed.data.title.trim() : '';
  return title.length > 0 ? title : undefined;
}

export class XmlPageError extends Error {
  readonly code = 'INVALID_XML_PAGE';
}
