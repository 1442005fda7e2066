/**
 * The parsers a record can need. The HTML engine is always there; the wikitext parser is loaded
 * by name at run time so that a build without it still converts HTML and envelopes, and reports
 * wikitext records as failed with a clear reason instead of refusing to start.
 */
import { parse } from '../engine/parse.js';
import type { Article } from '../schema/article.js';

export interface WikitextMeta {
  name?: string;
  identifier?: number;
  revision?: number;
  dateModified?: string;
  namespace?: number;
  project?: string;
  language?: string;
  url?: string;
}

export type ParseWikitext = (wikitext: string, meta?: WikitextMeta, options?: { maxInputBytes?: number }) => Article;

export interface Engines {
  parseHtml: typeof parse;
  parseWikitext: ParseWikitext | undefined;
}

const WIKITEXT_MODULE = '../engine/wikitext/index.js';

export async function loadEngines(): Promise<Engines> {
  let parseWikitext: ParseWikitext | undefined;
  try {
    const mod = (await import(WIKITEXT_MODULE)) as { parseWikitext?: unknown };
    if (typeof mod.parseWikitext === 'function') parseWikitext = mod.parseWikitext as ParseWikitext;
  } catch {
    parseWikitext = undefined;
  }
  return { parseHtml: parse, parseWikitext };
}
