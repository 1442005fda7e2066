/**
 * The OpenAPI text the /v2 entries share: parameters, Message replies, the common errors. The
 * schemas themselves are components generated from the zod shapes (routes/openapi.ts).
 */
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../content/request.js';

const REF = '#/components/schemas/';
export const ref = (name: string) => ({ $ref: `${REF}${name}` });

/** A reply whose body is a Message. */
export const message = (description: string) => ({ description, content: { 'application/json': { schema: ref('Message') } } });

/** A JSON reply of `schema`. */
export const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

/** A body of the component `name`. */
export const body = (name: string, required = false) => ({ required, ...json(ref(name)) });

/** A model or its sparse twin (a reply narrowed by `fields`). */
export const modelOrSparse = (name: string) => ({ anyOf: [ref(name), ref(`Sparse${name}`)] });

export const ifNoneMatch = { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } };
export const cached = { ETag: { schema: { type: 'string' } }, 'Cache-Control': { schema: { type: 'string' } } };
export const notModified = { '304': { description: 'Not modified (If-None-Match matched the ETag)' } };

export const titleParameter = {
  name: 'article_name',
  in: 'path',
  required: true,
  description: 'Title in URL form (underscores for spaces, percent-encoded); normalised as MediaWiki does; at most 255 bytes of UTF-8 once decoded',
  schema: { type: 'string' },
};

/** A query parameter that may be repeated or given as a comma list. */
const listParameter = (name: string, description: string) => ({
  name,
  in: 'query',
  required: false,
  description,
  style: 'form',
  explode: true,
  schema: { type: 'array', items: { type: 'string' } },
});

export const fieldsParameter = (description = 'Fields in dot notation; repeat the parameter or give a comma list') => listParameter('fields', description);
export const filtersParameter = (description: string) => listParameter('filters', description);

/** Filters of a list, with an example. */
export const listFiltersParameter = (example: string) =>
  filtersParameter(`Filters, AND-combined: \`field:value\` (repeat or comma list), e.g. \`${example}\`, or JSON text (a filter or an array of them)`);

export const limitParameter = (description?: string) => ({
  name: 'limit',
  in: 'query',
  required: false,
  ...(description === undefined ? {} : { description }),
  schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
});

/** The 200 of an article lookup: at most `limit` of `model`, each whole or narrowed by `fields`. */
export const lookupReply = (description: string, model: string) => ({
  '200': { description, headers: cached, content: { 'application/json': { schema: { type: 'array', maxItems: MAX_LIMIT, items: modelOrSparse(model) } } } },
  ...notModified,
});

/** What an article lookup answers when the title is bad, nowhere, or its wiki fails (`too long`: the 414's text). */
export const lookupErrors = (invalid: string, tooLong: string) => ({
  '400': message(invalid),
  '404': message('no such article in the store or on the wiki'),
  '414': message(tooLong),
  '502': message('the wiki is unreachable or failing'),
  '504': message('the wiki did not answer in time'),
});

/** The errors of every Enterprise route. */
export const enterpriseErrors = {
  '401': { ...message('missing, malformed, expired or revoked access token'), headers: { 'WWW-Authenticate': { schema: { type: 'string' } } } },
  '403': message('account disabled'),
  '405': { ...message('method not allowed on this path'), headers: { Allow: { schema: { type: 'string' } } } },
  '422': message('malformed body or query, unknown parameter, filter field or model field; or an article over a work limit of the engine, INPUT_TOO_COMPLEX (the message names it)'),
  '429': message('rate limited (Retry-After)'),
};

/** 401 of the structured contents and explorer routes (it says what WWW-Authenticate holds). */
export const unauthorized = {
  ...message('missing, malformed, expired or revoked access token'),
  headers: { 'WWW-Authenticate': { description: 'Bearer realm="wikistruct", with error="invalid_token" when a token was sent', schema: { type: 'string' } } },
};
