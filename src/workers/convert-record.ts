/**
 * One record in, one outcome out: decode, hand to the engine, serialize. Runs inside a worker
 * thread (and in-process for the single-thread baseline and the service's inline parser).
 * Serializing here keeps the main thread to I/O. Which front door an envelope takes is the
 * engine's decision (`parseEnvelope`); this module only supplies the wikitext parser when loaded.
 * Every failure becomes a `failed` outcome with a message; nothing thrown escapes.
 */
import { assembleArticle } from '../engine/article.js';
import { isEnvelopeLike } from '../engine/envelope.js';
import { WikistructError } from '../engine/errors.js';
import { parse } from '../engine/parse.js';
import { parseEnvelope } from '../engine/parse-envelope.js';
import type { WikitextDoor } from '../engine/parse-envelope.js';
import type { Article } from '../schema/article.js';
import type { Engines } from './engines.js';
import type { Outcome, Payload, RecordParseOptions } from '../io/record.js';
import { readXmlPage, XmlPageError } from '../io/xml-page.js';
import type { SiteinfoData } from '../engine/wiki/siteinfo.js';

export interface ConvertOptions {
  maxInputBytes?: number;
  /** Keep XML-dump pages outside the article namespace, and redirects. */
  allPages: boolean;
  /** Indent the Article JSON by 2 spaces (`--pretty`). */
  pretty?: boolean;
  /** The wiki of wikitext records (`--siteinfo FILE`); an XML dump's own <siteinfo> wins for its pages. */
  site?: SiteinfoData;
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
        article = parse(text, parseOptions(options, payload));
        break;
      case 'json': {
        const value = parseJson(text);
        if (isEnvelopeLike(value) && typeof value.name === 'string') name = value.name;
        article = parseEnvelope(value, { ...parseOptions(options, payload), wikitext: () => wikitext(engines), site: options.site });
        break;
      }
      case 'wikitext': {
        // What `parseWikitext` does, with the door the engines hold.
        const { extracted, meta } = wikitext(engines)(text, payload.meta ?? {}, { ...parseOptions(options, payload), site: options.site });
        article = assembleArticle(extracted, meta);
        break;
      }
      case 'xml-page': {
        const page = readXmlPage(text, payload.site ?? {});
        name = page.meta.name;
        if (!options.allPages) {
          if (page.redirect) return { status: 'skipped', reason: 'redirect' };
          if (page.namespace !== 0) return { status: 'skipped', reason: `namespace ${page.namespace}` };
        }
        // What `parseWikitext` does: the door, then the assembly the HTML door shares.
        const { extracted, meta } = wikitext(engines)(page.wikitext, page.meta, { ...parseOptions(options), site: payload.site?.data ?? options.site });
        article = assembleArticle(extracted, meta);
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

/** The converter's input limit, and a record's own options over it. */
function parseOptions(options: ConvertOptions, payload?: Payload): RecordParseOptions {
  const out: RecordParseOptions = options.maxInputBytes === undefined ? {} : { maxInputBytes: options.maxInputBytes };
  return payload?.parse === undefined ? out : { ...out, ...payload.parse };
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

class NoWikitextParserError extends Error {
  readonly code = 'NO_WIKITEXT_PARSER';
}

/** The record needs the wikitext parser, which is not loaded yet: load it and convert again. */
export const WIKITEXT_NOT_LOADED = 'WIKITEXT_NOT_LOADED';

class WikitextNotLoadedError extends Error {
  readonly code = WIKITEXT_NOT_LOADED;
}

function wikitext(engines: Engines): WikitextDoor {
  if (engines.wikitext === 'not-loaded') throw new WikitextNotLoadedError('the wikitext parser is not loaded yet');
  if (engines.wikitext === undefined) {
    throw new NoWikitextParserError('wikitext input needs the wikitext parser, which this build does not include');
  }
  return engines.wikitext;
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
