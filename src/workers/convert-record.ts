/**
 * One record in, one outcome out: decode, hand to the engine, serialize. Runs inside a worker
 * thread (and in-process for the single-thread baseline). Serializing here keeps the main thread
 * to I/O. Which front door a record takes is the engine's decision (`parseRecord`); this module
 * only decodes the payload into the engine's record and applies the batch's own policy (which XML
 * dump pages to keep). Every failure becomes a `failed` outcome with a message; nothing thrown escapes.
 */
import { isEnvelopeLike, parseRecord, parseSiteinfo, readPageLinks, WikistructError } from '../index.js';
import type { InputRecord, SiteinfoData, WikitextMeta } from '../index.js';
import type { Outcome, Payload, RecordParseOptions } from '../io/record.js';
import { articleUrl, readXmlPage, XmlPageError } from '../io/xml-page.js';

export interface ConvertOptions {
  maxInputBytes?: number;
  /** Keep XML-dump pages outside the article namespace, and redirects. */
  allPages: boolean;
  /** Indent the Article JSON by 2 spaces (`--pretty`). */
  pretty?: boolean;
  /**
   * The wiki of wikitext records (`--siteinfo FILE`), as the file's XML text; an XML dump's own
   * <siteinfo> wins for its pages. Parsed here, on the worker, once (siteOf).
   */
  siteinfo?: string;
}

const decoder = new TextDecoder('utf-8');
const encoder = new TextEncoder();

export function convertPayload(payload: Payload, options: ConvertOptions): Outcome {
  let name: string | undefined;
  try {
    if (payload.links !== undefined) {
      const links = readPageLinks(decoder.decode(payload.bytes), payload.links.base === undefined ? {} : { base: payload.links.base });
      return { status: 'ok', json: encoder.encode(JSON.stringify(links)) };
    }
    const input = inputOf(payload, options);
    if ('skipped' in input) return { status: 'skipped', reason: input.skipped };
    name = input.name;
    const article = parseRecord(input.record, { ...parseOptions(options, payload), site: input.site });
    const out: Outcome = { status: 'ok', json: encoder.encode(JSON.stringify(article, null, options.pretty === true ? 2 : undefined)) };
    if (article.name !== undefined) out.name = article.name;
    return out;
  } catch (error) {
    return failure(error, name);
  }
}

/** What the engine is handed for a payload, or why the batch skips it. */
export type PayloadInput =
  | {
      record: InputRecord;
      /** The wiki of a wikitext record: an XML dump's own <siteinfo>, else `--siteinfo`. */
      site: SiteinfoData | undefined;
      /** The title, when known before parsing: a failure is named by it. */
      name?: string | undefined;
    }
  | { skipped: string };

/** The payload decoded into the engine's record; the batch's own policy (which dump pages it keeps) applied. */
export function inputOf(payload: Payload, options: ConvertOptions): PayloadInput {
  const text = decoder.decode(payload.bytes);
  switch (payload.kind) {
    case 'html':
      return { record: { kind: 'html', html: text }, site: siteOf(options.siteinfo) };
    case 'json': {
      const value = parseJson(text);
      const name = isEnvelopeLike(value) && typeof value.name === 'string' ? value.name : undefined;
      return { record: { kind: 'envelope', envelope: value }, site: siteOf(options.siteinfo), name };
    }
    case 'wikitext': {
      const site = siteOf(options.siteinfo);
      return { record: { kind: 'wikitext', wikitext: text, meta: withWiki(payload.meta, site) }, site, name: payload.meta?.name };
    }
    case 'xml-page': {
      const page = readXmlPage(text, payload.site ?? {});
      if (!options.allPages) {
        if (page.redirect) return { skipped: 'redirect' };
        if (page.namespace !== 0) return { skipped: `namespace ${page.namespace}` };
      }
      return { record: { kind: 'wikitext', wikitext: page.wikitext, meta: page.meta }, site: siteOf(payload.site?.block ?? options.siteinfo), name: page.meta.name };
    }
    default: {
      const never: never = payload.kind;
      throw new Error(`unknown payload kind ${String(never)}`);
    }
  }
}

/**
 * The siteinfo XML a worker was last handed, parsed. A run has one or two (its `--siteinfo`, a
 * dump's own block, the same for every page of the dump), so one entry per worker is enough; the
 * text arrives afresh with each page, and comparing it costs far less than parsing it again.
 */
let lastSite: { xml: string; data: SiteinfoData } | undefined;

function siteOf(xml: string | undefined): SiteinfoData | undefined {
  if (xml === undefined) return undefined;
  if (lastSite?.xml !== xml) lastSite = { xml, data: parseSiteinfo(xml) };
  return lastSite.data;
}

/**
 * A bare wikitext page's metadata (a `.wikitext` file: its title only) completed with the wiki
 * `--siteinfo` names, as a dump's pages are with their dump's: project, language, URL. What the
 * payload already says wins (the service's pages come with their own).
 */
function withWiki(meta: WikitextMeta | undefined, site: SiteinfoData | undefined): WikitextMeta | undefined {
  if (site === undefined) return meta;
  const out: WikitextMeta = { ...meta };
  if (out.project === undefined && site.dbName !== undefined) out.project = site.dbName;
  if (out.language === undefined && site.language !== undefined) out.language = site.language;
  if (out.url === undefined && out.name !== undefined && site.base !== undefined) {
    const origin = originOf(site.base);
    if (origin !== undefined) out.url = articleUrl(origin, out.name);
  }
  return out;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The converter's input limit, and a record's own options over it. */
function parseOptions(options: ConvertOptions, payload: Payload): RecordParseOptions {
  const out: RecordParseOptions = options.maxInputBytes === undefined ? {} : { maxInputBytes: options.maxInputBytes };
  return payload.parse === undefined ? out : { ...out, ...payload.parse };
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

function failure(error: unknown, name: string | undefined): Outcome {
  const out: Outcome = { status: 'failed', message: error instanceof Error ? error.message : String(error) };
  if (error instanceof WikistructError || error instanceof MalformedJsonError || error instanceof XmlPageError) {
    out.code = error.code;
  } else {
    // Not a typed input error: an engine bug. Still one record, never the batch.
    out.code = 'INTERNAL';
    out.message = `internal error: ${out.message}`;
  }
  if (name !== undefined) out.name = name;
  return out;
}
