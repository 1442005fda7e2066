/**
 * One record in, one outcome out: decode, hand to the engine, serialize. Runs inside a worker
 * thread (and in-process for the single-thread baseline). Serializing here keeps the main thread
 * to I/O. Which front door a record takes is the engine's decision (`parseRecord`); this module
 * only decodes the payload into the engine's record and applies the batch's own policy (which XML
 * dump pages to keep). Every failure becomes a `failed` outcome with a message; nothing thrown escapes.
 */
// The engine's modules rather than its index, which would load the wikitext parser into every
// worker: a worker loads it only when a record needs it (loadWikitextDoor). A run of HTML pages
// and envelopes never does: 13 MB less resident per worker (issue 26).
import { isEnvelopeLike } from '../engine/envelope.js';
import { WikistructError } from '../engine/errors.js';
import { readPageLinks } from '../engine/page-links.js';
import type { WikitextDoor } from '../engine/parse-envelope.js';
import { parseRecord } from '../engine/parse-record.js';
import type { InputRecord, SiteinfoData } from '../index.js';
import type { Outcome, Payload, RecordParseOptions } from '../io/record.js';
import { readXmlPage, XmlPageError } from '../io/xml-page.js';

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

let wikitextDoor: WikitextDoor | undefined;

/** Loads the wikitext parser (once): a record that needs it converts after this. */
export async function loadWikitextDoor(): Promise<void> {
  wikitextDoor ??= (await import('../engine/wikitext/index.js')).readWikitext;
}

/** Thrown by the door before it is loaded; the record is converted again once it is. */
class WikitextDoorNotLoaded extends Error {}

function wikitextDoorLoaded(): WikitextDoor {
  if (wikitextDoor === undefined) throw new WikitextDoorNotLoaded('the wikitext parser is not loaded (loadWikitextDoor)');
  return wikitextDoor;
}

/** What a worker runs: `convertPayload`, the wikitext parser loaded first if the record needs it. */
export async function convertPayloadLoading(payload: Payload, options: ConvertOptions): Promise<Outcome> {
  const outcome = tryConvert(payload, options);
  if (outcome !== NEEDS_WIKITEXT) return outcome;
  await loadWikitextDoor();
  return convertPayload(payload, options);
}

/**
 * One record → its outcome, synchronously. A record that needs the wikitext parser fails unless
 * it is loaded (loadWikitextDoor; a worker runs convertPayloadLoading, which loads it).
 */
export function convertPayload(payload: Payload, options: ConvertOptions): Outcome {
  const outcome = tryConvert(payload, options);
  return outcome === NEEDS_WIKITEXT ? { status: 'failed', code: 'INTERNAL', message: 'internal error: the wikitext parser is not loaded (loadWikitextDoor)' } : outcome;
}

const NEEDS_WIKITEXT = Symbol('needs the wikitext parser');

function tryConvert(payload: Payload, options: ConvertOptions): Outcome | typeof NEEDS_WIKITEXT {
  let name: string | undefined;
  try {
    if (payload.links !== undefined) {
      const links = readPageLinks(decoder.decode(payload.bytes), payload.links.base === undefined ? {} : { base: payload.links.base });
      return { status: 'ok', json: encoder.encode(JSON.stringify(links)) };
    }
    const input = inputOf(payload, options);
    if ('skipped' in input) return { status: 'skipped', reason: input.skipped };
    name = input.name;
    const article = parseRecord(input.record, { ...parseOptions(options, payload), site: input.site, wikitext: wikitextDoorLoaded });
    const out: Outcome = { status: 'ok', json: encoder.encode(JSON.stringify(article, null, options.pretty === true ? 2 : undefined)) };
    if (article.name !== undefined) out.name = article.name;
    return out;
  } catch (error) {
    if (error instanceof WikitextDoorNotLoaded) return NEEDS_WIKITEXT;
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
      return { record: { kind: 'html', html: text }, site: options.site };
    case 'json': {
      const value = parseJson(text);
      const name = isEnvelopeLike(value) && typeof value.name === 'string' ? value.name : undefined;
      return { record: { kind: 'envelope', envelope: value }, site: options.site, name };
    }
    case 'wikitext':
      return { record: { kind: 'wikitext', wikitext: text, meta: payload.meta }, site: options.site };
    case 'xml-page': {
      const page = readXmlPage(text, payload.site ?? {});
      if (!options.allPages) {
        if (page.redirect) return { skipped: 'redirect' };
        if (page.namespace !== 0) return { skipped: `namespace ${page.namespace}` };
      }
      return { record: { kind: 'wikitext', wikitext: page.wikitext, meta: page.meta }, site: payload.site?.data ?? options.site, name: page.meta.name };
    }
    default: {
      const never: never = payload.kind;
      throw new Error(`unknown payload kind ${String(never)}`);
    }
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
