/**
 * `<siteinfo>` of a MediaWiki XML export: which wiki the pages belong to. It fills the project,
 * language and page URLs of every Article converted from the dump.
 *
 * The thread that reads inputs never loads the engine: the block travels to the worker threads as
 * its XML text and is parsed there, through the engine's door (workers/convert-record.ts). The
 * engine's modules cost 23 MB of a process's memory once loaded, and more as they run; `convert`'s
 * main thread only reads, splits and writes (docs/batch.md, "The main process"). Only a
 * `--siteinfo FILE` checked before a run starts loads the engine here (checkSiteinfoFile).
 */
import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { z } from 'zod';
import { UsageError } from '../usage-error.js';

export interface SiteInfo {
  /** Database name, e.g. `enwiki`: the Article's `is_part_of.identifier`. */
  dbname?: string;
  /** Origin of the wiki, e.g. `https://en.wikipedia.org`. */
  origin?: string;
  /** Language code from the host name (`en.wikipedia.org` → `en`). */
  language?: string;
  /** The whole `<siteinfo>` element as the dump holds it: the worker converting a page hands it to the wikitext door. */
  block?: string;
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
  const block = head.slice(start, end + '</siteinfo>'.length);
  const parsed = SiteInfoXmlSchema.safeParse(parser.parse(block));
  if (!parsed.success) return {};
  const info: SiteInfo = { block };
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
 * The text of a siteinfo file for inputs that carry none (`--siteinfo FILE`): a dump's
 * `<siteinfo>` block or the MediaWiki API's siteinfo XML, handed as it is to the worker threads,
 * which parse it once each. Throws UsageError naming the file when it cannot be read.
 */
export function readSiteinfoText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--siteinfo ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * readSiteinfoText, and the text parsed once by the engine so that a file holding no siteinfo is
 * bad usage before anything is written or queued, with the engine's own message. The engine is
 * loaded here, through its door, only when a run names such a file.
 */
export async function checkSiteinfoFile(path: string): Promise<string> {
  const text = readSiteinfoText(path);
  const { parseSiteinfo } = await import('../../index.js');
  try {
    parseSiteinfo(text);
  } catch (error) {
    throw new UsageError(`--siteinfo ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return text;
}
