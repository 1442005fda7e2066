/**
 * The parsers a record can need. The HTML engine is always there; the wikitext parser is loaded
 * by name, on first use, so that HTML-only runs do not pay for it in every worker, and a build
 * without it still converts HTML and envelopes (wikitext records then fail with a clear reason).
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

/** `'not-loaded'`: not needed yet; converting a wikitext record asks for `loadWikitext` first. */
export interface Engines {
  parseHtml: typeof parse;
  parseWikitext: ParseWikitext | undefined | 'not-loaded';
}

const WIKITEXT_MODULE = '../engine/wikitext/index.js';

/** The HTML engine only: workers start with this and load the wikitext parser on first use. */
export function htmlEngines(): Engines {
  return { parseHtml: parse, parseWikitext: 'not-loaded' };
}

let wikitextModule: Promise<ParseWikitext | undefined> | undefined;

export async function loadWikitext(engines: Engines): Promise<void> {
  wikitextModule ??= import(WIKITEXT_MODULE).then(
    (mod: { parseWikitext?: unknown }) => (typeof mod.parseWikitext === 'function' ? (mod.parseWikitext as ParseWikitext) : undefined),
    () => undefined,
  );
  engines.parseWikitext = await wikitextModule;
}

export async function loadEngines(): Promise<Engines> {
  const engines = htmlEngines();
  await loadWikitext(engines);
  return engines;
}
