/**
 * `<siteinfo>` of a MediaWiki XML export: which wiki the pages belong to. It fills the project,
 * language and page URLs of every Article converted from the dump.
 */
import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { z } from 'zod';
import { parseSiteinfo } from '../../index.js';
import type { SiteinfoData } from '../../index.js';
import { UsageError } from '../usage-error.js';

export interface SiteInfo {
  /** Database name, e.g. `enwiki`: the Article's `is_part_of.identifier`. */
  dbname?: string;
  /** Origin of the wiki, e.g. `https://en.wikipedia.org`. */
  origin?: string;
  /** Language code from the host name (`en.wikipedia.org` → `en`). */
  language?: string;
  /** The whole block as the engine reads it (namespaces and their names): handed to the wikitext door. */
  data?: SiteinfoData;
}

const SiteInfoXmlSchema = z.looseObject({
  siteinfo: z.looseObject({
    dbname: z.string().optional(),
    base: z.string().optional(),
  }),
});

const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, htmlEntities: true });

/** Reads the `<siteinfo>` element out of the bytes before the first `<page>`; empty when absent. */
export function readSiteInfo(head: string): SiteInfo {
  const start = head.indexOf('<siteinfo>');
  const end = head.indexOf('</siteinfo>');
  if (start === -1 || end === -1) return {};
  const parsed = SiteInfoXmlSchema.safeParse(parser.parse(head.slice(start, end + '</siteinfo>'.length)));
  if (!parsed.success) return {};
  const info: SiteInfo = { data: parseSiteinfo(head.slice(start, end + '</siteinfo>'.length)) };
  const { dbname, base } = parsed.data.siteinfo;
  if (dbname !== undefined) info.dbname = dbname;
  if (base !== undefined) {
    try {
      const url = new URL(base);
      info.origin = url.origin;
      const language = /^([a-z][a-z0-9-]*)\.(?:m\.)?(?:wikipedia|wiktionary|wikibooks|wikinews|wikiquote|wikisource|wikiversity|wikivoyage)\.org$/.exec(url.hostname)?.[1];
      if (language !== undefined) info.language = language;
    } catch {
      // A malformed <base> only costs the URLs; the pages still convert.
    }
  }
  return info;
}

/**
 * A siteinfo file for inputs that carry none (`--siteinfo FILE`): a dump's `<siteinfo>` block or
 * the MediaWiki API's siteinfo XML. Throws UsageError naming the file when it cannot be read or
 * holds neither.
 */
export function readSiteinfoFile(path: string): SiteinfoData {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--siteinfo ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return parseSiteinfo(text);
  } catch (error) {
    throw new UsageError(`--siteinfo ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
