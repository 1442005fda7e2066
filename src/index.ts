import type { Article } from './schema/article.js';
import { parseEnvelope as parseEnvelopeWith } from './engine/parse-envelope.js';
import type { ParseEnvelopeOptions } from './engine/parse-envelope.js';
import { parseRecord as parseRecordWith } from './engine/parse-record.js';
import type { InputRecord, ParseRecordOptions } from './engine/parse-record.js';
import { readWikitext } from './engine/wikitext/index.js';

export { parse } from './engine/parse.js';
export type { ParseInput, ParseOptions } from './engine/parse.js';
export { InputTooComplexError, InputTooLargeError, InvalidInputError, NotHtmlError, WikistructError } from './engine/errors.js';
export { WORK_LIMITS, workLimits } from './engine/budget.js';
export type { WorkLimit } from './engine/budget.js';
export type { WikistructErrorCode } from './engine/errors.js';
export { EnvelopeSchema, isEnvelopeLike } from './engine/envelope.js';
export type { Envelope } from './engine/envelope.js';
// Where a project lives: a caller holding a project code (enwiki) or a host needs the other, for
// the wiki's URLs and for the `project` of parseWikitext; the engine knows both from grammar/projects.json.
export { hostOfProject, projectOfHost } from './engine/site.js';
// Every Wikimedia wiki's family, host and language, and a language's direction (grammar/generated/):
// the service's catalog lists them (/v2/projects, /v2/languages) without a second table.
export { familyOf, languageDir, wikiData } from './engine/wiki/data.js';
export type { WikiFacts } from './engine/wiki/data.js';
// The validated grammar the engine runs on (grammar/*.json): tools that must follow the engine's
// wiki facts (project hosts, title rules, the names of projects and languages) read them here.
export { GRAMMAR } from './engine/grammar/load.js';
export type { Grammar } from './engine/grammar/schemas.js';
// What the output depends on besides the code, by file: a cache of Articles keys on their hash.
export { GRAMMAR_SOURCES } from './engine/grammar/load.js';
export { WIKI_DATA_SOURCES } from './engine/wiki/data.js';
export * from './schema/article.js';
export { parseWikitext } from './engine/wikitext/index.js';
export type { WikitextMeta, WikitextOptions } from './engine/wikitext/index.js';
export type { ParseEnvelopeOptions, WikitextDoor } from './engine/parse-envelope.js';
export { wikitextRecordOf } from './engine/parse-envelope.js';
export type { InputRecord, ParseRecordOptions } from './engine/parse-record.js';
export { wikiProfile } from './engine/wiki/profile.js';
export type { ImageOption, WikiProfile, WikiProfileInput, WikiSite } from './engine/wiki/profile.js';
export { parseSiteinfo } from './engine/wiki/siteinfo.js';
// The categories and templates a Parsoid page names (the Enterprise Article's `categories` and
// `templates`, for pages delivered without an envelope that lists them).
export { readPageLinks } from './engine/page-links.js';
export type { PageLink, PageLinks, PageLinksOptions } from './engine/page-links.js';
export type { SiteinfoData } from './engine/wiki/siteinfo.js';

/**
 * An Enterprise envelope → Article: HTML when `article_body.html` is there, else the wikitext.
 * This package entry loads the wikitext parser anyway, so its door is bound by default.
 */
export function parseEnvelope(envelope: unknown, options: ParseEnvelopeOptions = {}): Article {
  return parseEnvelopeWith(envelope, { wikitext: () => readWikitext, ...options });
}

/**
 * Any input record → Article: HTML, an envelope (whose body picks the door) or wikitext with its
 * page's meta. What the batch converter, the importer and the service all hand the engine.
 */
export function parseRecord(record: InputRecord, options: ParseRecordOptions = {}): Article {
  return parseRecordWith(record, { wikitext: () => readWikitext, ...options });
}
