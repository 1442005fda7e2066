/**
 * `parseRecord`: any input record → Article, through the front door its kind calls for. This is
 * what the batch converter, the importer and the service hand the engine (src/workers/convert-
 * record.ts decodes their payloads into these records): a page's HTML, an Enterprise envelope
 * (whose door `parseEnvelope` picks), or wikitext with what is known about its page (an XML dump's
 * page, a page pasted into /v2/parse). A front door and the back half (assembleArticle) are put
 * together here and in the doors, never by a caller.
 *
 * Like `parseEnvelope`, the wikitext door is injected, so this module never loads the wikitext
 * parser itself; `src/index.ts` exports `parseRecord` with the door bound.
 */
import type { Article } from '../schema/article.js';
import { assembleArticle } from './article.js';
import { InvalidInputError } from './errors.js';
import { parse } from './parse.js';
import { parseEnvelope } from './parse-envelope.js';
import type { ParseEnvelopeOptions } from './parse-envelope.js';
// Types only: erased at run time, so this module never loads the wikitext parser itself.
import type { WikitextMeta, WikitextOptions } from './wikitext/index.js';

/** One input, decoded: which front door it takes follows from its kind. */
export type InputRecord =
  | { kind: 'html'; html: string }
  /** An Enterprise envelope as parsed JSON (any value: one that is not an envelope is refused with the reason). */
  | { kind: 'envelope'; envelope: unknown }
  /** Wikitext with its page's title, ids and wiki (for links, the url, is_part_of). */
  | { kind: 'wikitext'; wikitext: string; meta?: WikitextMeta | undefined };

/** The options of both doors: the input limit, source hints (HTML), the wiki (wikitext), the wikitext door. */
export type ParseRecordOptions = ParseEnvelopeOptions;

export function parseRecord(record: InputRecord, options: ParseRecordOptions = {}): Article {
  switch (record.kind) {
    case 'html':
      return parse(record.html, options);
    case 'envelope':
      return parseEnvelope(record.envelope, options);
    case 'wikitext': {
      if (options.wikitext === undefined) throw new InvalidInputError('wikitext input needs the wikitext parser, and none was given');
      const door: WikitextOptions = { site: options.site };
      if (options.maxInputBytes !== undefined) door.maxInputBytes = options.maxInputBytes;
      const { extracted, meta } = options.wikitext()(record.wikitext, record.meta ?? {}, door);
      return assembleArticle(extracted, meta);
    }
    default: {
      const never: never = record;
      throw new InvalidInputError(`unknown input record kind ${JSON.stringify((never as { kind?: unknown }).kind)}`);
    }
  }
}
