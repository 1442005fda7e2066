export { parse } from './engine/parse.js';
export type { ParseInput, ParseOptions } from './engine/parse.js';
export { InputTooLargeError, InvalidInputError, NotHtmlError, WikistructError } from './engine/errors.js';
export type { WikistructErrorCode } from './engine/errors.js';
export { EnvelopeSchema } from './engine/envelope.js';
export type { Envelope } from './engine/envelope.js';
export * from './schema/article.js';
export { parseWikitext } from './engine/wikitext/index.js';
export type { WikitextMeta } from './engine/wikitext/index.js';
