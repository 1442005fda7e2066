import type { Article } from './schema/article.js';
import { parseEnvelope as parseEnvelopeWith } from './engine/parse-envelope.js';
import type { ParseEnvelopeOptions } from './engine/parse-envelope.js';
import { readWikitext } from './engine/wikitext/index.js';

export { parse } from './engine/parse.js';
export type { ParseInput, ParseOptions } from './engine/parse.js';
export { InputTooComplexError, InputTooLargeError, InvalidInputError, NotHtmlError, WikistructError } from './engine/errors.js';
export { WORK_LIMITS, workLimits } from './engine/budget.js';
export type { WorkLimit } from './engine/budget.js';
export type { WikistructErrorCode } from './engine/errors.js';
export { EnvelopeSchema } from './engine/envelope.js';
export type { Envelope } from './engine/envelope.js';
export * from './schema/article.js';
export { parseWikitext } from './engine/wikitext/index.js';
export type { WikitextMeta, WikitextOptions } from './engine/wikitext/index.js';
export type { ParseEnvelopeOptions, WikitextDoor } from './engine/parse-envelope.js';

/**
 * An Enterprise envelope → Article: HTML when `article_body.html` is there, else the wikitext.
 * This package entry loads the wikitext parser anyway, so its door is bound by default.
 */
export function parseEnvelope(envelope: unknown, options: ParseEnvelopeOptions = {}): Article {
  return parseEnvelopeWith(envelope, { wikitext: () => readWikitext, ...options });
}
