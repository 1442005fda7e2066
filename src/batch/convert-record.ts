/**
 * One record in, one outcome out: decode, parse, serialize. Runs inside a worker thread (and
 * in-process for the single-thread baseline). Serializing here keeps the main thread to I/O.
 * Every failure becomes a `failed` outcome with a message; nothing thrown escapes.
 */
import { envelopeMeta, isEnvelopeLike, readEnvelope } from '../engine/envelope.js';
import { WikistructError } from '../engine/errors.js';
import type { Article } from '../schema/article.js';
import type { Engines, ParseWikitext, WikitextMeta } from './engines.js';
import type { Outcome, Payload } from './record.js';
import { readXmlPage, XmlPageError } from './xml-page.js';

export interface ConvertOptions {
  maxInputBytes?: number;
  /** Keep XML-dump pages outside the article namespace, and redirects. */
  allPages: boolean;
  /** Indent the Article JSON by 2 spaces (`--pretty`). */
  pretty?: boolean;
}

const decoder = new TextDecoder('utf-8');
const encoder = new TextEncoder();

export function convertPayload(payload: Payload, engines: Engines, options: ConvertOptions): Outcome {
  let name: string | undefined;
  try {
    const text = decoder.decode(payload.bytes);
    let article: Article;
    switch (payload.kind) {
      case 'html':
        article = engines.parseHtml(text, parseOptions(options));
        break;
      case 'json': {
        const value = parseJson(text);
        if (isEnvelopeLike(value) && typeof value.name === 'string') name = value.name;
        article = fromEnvelope(value, engines, options);
        break;
      }
      case 'xml-page': {
        const page = readXmlPage(text, payload.site ?? {});
        name = page.meta.name;
        if (!options.allPages) {
          if (page.redirect) return { status: 'skipped', reason: 'redirect' };
          if (page.namespace !== 0) return { status: 'skipped', reason: `namespace ${page.namespace}` };
        }
        article = wikitext(engines)(page.wikitext, page.meta, parseOptions(options));
        break;
      }
      default: {
        const never: never = payload.kind;
        throw new Error(`unknown payload kind ${String(never)}`);
      }
    }
    const out: Outcome = { status: 'ok', json: encoder.encode(JSON.stringify(article, null, options.pretty === true ? 2 : undefined)) };
    if (article.name !== undefined) out.name = article.name;
    return out;
  } catch (error) {
    return failure(error, name);
  }
}

function parseOptions(options: ConvertOptions): { maxInputBytes?: number } {
  return options.maxInputBytes === undefined ? {} : { maxInputBytes: options.maxInputBytes };
}

class MalformedJsonError extends Error {
  readonly code = 'MALFORMED_JSON';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MalformedJsonError(`malformed JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Envelopes with HTML go to the HTML engine; wikitext-only envelopes to the wikitext parser. */
function fromEnvelope(value: unknown, engines: Engines, options: ConvertOptions): Article {
  if (isEnvelopeLike(value)) {
    const envelope = readEnvelope(value);
    const { html, wikitext: source } = envelope.article_body;
    if (html === undefined && source !== undefined) {
      const meta = envelopeMeta(envelope);
      const wikiMeta: WikitextMeta = {};
      if (meta.name !== undefined) wikiMeta.name = meta.name;
      if (meta.identifier !== undefined) wikiMeta.identifier = meta.identifier;
      if (meta.version?.identifier !== undefined) wikiMeta.revision = meta.version.identifier;
      if (meta.date_modified !== undefined) wikiMeta.dateModified = meta.date_modified;
      if (meta.is_part_of?.identifier !== undefined) wikiMeta.project = meta.is_part_of.identifier;
      if (meta.in_language?.identifier !== undefined) wikiMeta.language = meta.in_language.identifier;
      if (meta.url !== undefined) wikiMeta.url = meta.url;
      const article = wikitext(engines)(source, wikiMeta, parseOptions(options));
      // The envelope's own metadata (license, entities, ...) is authoritative, as for HTML envelopes.
      return { ...article, ...meta };
    }
  }
  return engines.parseHtml(value as Record<string, unknown>, parseOptions(options));
}

class NoWikitextParserError extends Error {
  readonly code = 'NO_WIKITEXT_PARSER';
}

/** The record needs the wikitext parser, which is not loaded yet: load it and convert again. */
export const WIKITEXT_NOT_LOADED = 'WIKITEXT_NOT_LOADED';

class WikitextNotLoadedError extends Error {
  readonly code = WIKITEXT_NOT_LOADED;
}

function wikitext(engines: Engines): ParseWikitext {
  if (engines.parseWikitext === 'not-loaded') throw new WikitextNotLoadedError('the wikitext parser is not loaded yet');
  if (engines.parseWikitext === undefined) {
    throw new NoWikitextParserError('wikitext input needs the wikitext parser, which this build does not include');
  }
  return engines.parseWikitext;
}

function failure(error: unknown, name: string | undefined): Outcome {
  const out: Outcome = { status: 'failed', message: error instanceof Error ? error.message : String(error) };
  if (
    error instanceof WikistructError ||
    error instanceof MalformedJsonError ||
    error instanceof XmlPageError ||
    error instanceof NoWikitextParserError ||
    error instanceof WikitextNotLoadedError
  ) {
    out.code = error.code;
  } else {
    // Not a typed input error: an engine bug. Still one record, never the batch.
    out.code = 'INTERNAL';
    out.message = `internal error: ${out.message}`;
  }
  if (name !== undefined) out.name = name;
  return out;
}
