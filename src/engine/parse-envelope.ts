/**
 * `parseEnvelope`: one Wikimedia Enterprise envelope in, one Article out, through the front door
 * its body calls for: the HTML door when it has `article_body.html`, else the wikitext door with
 * the envelope's metadata mapped to the wikitext meta. Either way the envelope's own metadata
 * (license, entities, description …) is authoritative over what the body yields.
 *
 * The wikitext door is injected rather than imported, so that the HTML engine's modules load
 * without wikiparser-node (the explorer's browser bundle uses some of them). `src/index.ts`, the
 * one door callers use, exports this function with the door bound.
 */
import type { Article } from '../schema/article.js';
import { assembleArticle } from './article.js';
import type { FrontDoorResult } from './article.js';
import { envelopeMeta, isEnvelopeLike, readEnvelope } from './envelope.js';
import type { Envelope } from './envelope.js';
import { InvalidInputError } from './errors.js';
import { DEFAULT_MAX_INPUT_BYTES, fromEnvelope } from './input.js';
import { readHtml } from './parse.js';
import type { ParseOptions } from './parse.js';
// Types only: erased at run time, so this module never loads the wikitext parser itself.
import type { WikitextMeta, WikitextOptions } from './wikitext/index.js';
import type { WikiSite } from './wiki/profile.js';

/** The wikitext front door, `readWikitext` of ./wikitext/index.ts. */
export type WikitextDoor = (wikitext: string, meta?: WikitextMeta, options?: WikitextOptions) => FrontDoorResult;

export interface ParseEnvelopeOptions extends ParseOptions {
  /**
   * Hands over the wikitext door; asked only for an envelope without HTML. It may throw to say
   * the door is not available (a build without it, a worker that has not loaded it yet): the
   * error propagates as thrown. Without this option such an envelope is refused.
   */
  wikitext?: () => WikitextDoor;
  /** The wiki of a wikitext envelope (a profile or a siteinfo), handed to the wikitext door. */
  site?: WikiSite | undefined;
}

export function parseEnvelope(value: unknown, options: ParseEnvelopeOptions = {}): Article {
  if (!isEnvelopeLike(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
    throw new InvalidInputError(`expected an article envelope (an object with article_body), got ${kind}${kind === 'object' ? ' without article_body' : ''}`);
  }
  const envelope = readEnvelope(value);
  const maxBytes = options.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const { html, wikitext } = envelope.article_body;
  // An envelope with neither body goes to the HTML door, which refuses it with the reason.
  if (html !== undefined || wikitext === undefined) {
    const { extracted, meta } = readHtml(fromEnvelope(envelope, maxBytes), options);
    return assembleArticle(extracted, meta);
  }
  if (options.wikitext === undefined) {
    throw new InvalidInputError('article envelope has only article_body.wikitext, and no wikitext parser was given');
  }
  const fields = envelopeMeta(envelope);
  const { extracted, meta } = options.wikitext()(wikitext, wikitextMeta(envelope), { maxInputBytes: maxBytes, site: options.site });
  return assembleArticle(extracted, { ...meta, fields: { ...meta.fields, ...fields } });
}

/**
 * The envelope's wikitext as a record of its own, with the page's meta from the envelope and
 * nothing else of it (no description, license, entities): what the wikitext door alone makes of
 * the page, e.g. to compare it with the HTML door on an envelope that carries both bodies.
 * Undefined when the envelope has no wikitext; an invalid envelope is refused as `parseEnvelope` does.
 */
export function wikitextRecordOf(value: unknown): { kind: 'wikitext'; wikitext: string; meta: WikitextMeta } | undefined {
  if (!isEnvelopeLike(value)) throw new InvalidInputError('expected an article envelope (an object with article_body)');
  const envelope = readEnvelope(value);
  const wikitext = envelope.article_body.wikitext;
  return wikitext === undefined ? undefined : { kind: 'wikitext', wikitext, meta: wikitextMeta(envelope) };
}

/**
 * What the wikitext door needs from the envelope: the title, ids, namespace and the wiki, for
 * links and the url. The one mapping from an envelope to wikitext meta.
 */
function wikitextMeta(envelope: Envelope): WikitextMeta {
  const out: WikitextMeta = {};
  if (envelope.name !== undefined) out.name = envelope.name;
  if (envelope.identifier !== undefined) out.identifier = envelope.identifier;
  if (envelope.version?.identifier !== undefined) out.revision = envelope.version.identifier;
  if (envelope.date_modified !== undefined) out.dateModified = envelope.date_modified;
  if (envelope.namespace?.identifier !== undefined) out.namespace = envelope.namespace.identifier;
  if (envelope.is_part_of?.identifier !== undefined) out.project = envelope.is_part_of.identifier;
  if (envelope.in_language?.identifier !== undefined) out.language = envelope.in_language.identifier;
  if (envelope.url !== undefined) out.url = envelope.url;
  return out;
}
