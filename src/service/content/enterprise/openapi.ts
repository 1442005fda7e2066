/**
 * The Enterprise endpoints in /v2/openapi.json (content/openapi.ts merges these in): paths, and
 * the response models generated from the zod models (models.ts) with their sparse twins for
 * replies narrowed by `fields`, as content/openapi.ts does for the Article.
 */
import { z } from 'zod';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../request.js';
import { ArticleLookupRequest } from './model-request.js';
import { MODELS } from './models.js';

const REF = '#/components/schemas/';
const ref = (name: string) => ({ $ref: `${REF}${name}` });

/** The models as components, each with a `Sparse<Name>` twin (`sparse` drops every `required`). */
export function enterpriseComponents(sparse: (schema: unknown) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, model] of Object.entries(MODELS)) {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(model, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
    out[name] = schema;
    out[`Sparse${name}`] = sparse(schema);
  }
  const { $schema: _ignored, ...lookup } = z.toJSONSchema(ArticleLookupRequest, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  out['ArticleLookupRequest'] = lookup;
  out['ListRequest'] = {
    type: 'object',
    additionalProperties: false,
    properties: {
      filters: {
        type: 'array',
        maxItems: 10,
        description: 'AND-combined: a field of the listed model (dot notation) equal to the value (compared as text)',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['field', 'value'],
          properties: { field: { type: 'string' }, value: { type: ['string', 'number', 'boolean'] } },
        },
      },
      fields: { type: 'array', minItems: 1, items: { type: 'string' }, description: 'Fields of the listed model in dot notation' },
    },
  };
  out['ItemRequest'] = { type: 'object', additionalProperties: false, properties: { fields: { type: 'array', minItems: 1, items: { type: 'string' } } } };
  return out;
}

const message = (description: string) => ({ description, content: { 'application/json': { schema: ref('Message') } } });
const common = {
  '401': {
    ...message('missing, malformed, expired or revoked access token'),
    headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
  },
  '403': message('account disabled'),
  '405': { ...message('method not allowed on this path'), headers: { Allow: { schema: { type: 'string' } } } },
  '422': message('malformed body or query, unknown parameter, filter field or model field; or an article over a work limit of the engine, INPUT_TOO_COMPLEX (the message names it)'),
  '429': message('rate limited (Retry-After)'),
};
const cached = { ETag: { schema: { type: 'string' } }, 'Cache-Control': { schema: { type: 'string' } } };
const fieldsParameter = {
  name: 'fields',
  in: 'query',
  required: false,
  description: 'Fields in dot notation; repeat the parameter or give a comma list',
  style: 'form',
  explode: true,
  schema: { type: 'array', items: { type: 'string' } },
};
const filtersParameter = (example: string) => ({
  name: 'filters',
  in: 'query',
  required: false,
  description: `Filters, AND-combined: \`field:value\` (repeat or comma list), e.g. \`${example}\`, or JSON text (a filter or an array of them)`,
  style: 'form',
  explode: true,
  schema: { type: 'array', items: { type: 'string' } },
});
const identifier = (description: string, type: 'string' | 'integer' = 'string') => ({ name: 'identifier', in: 'path', required: true, description, schema: { type } });
const ifNoneMatch = { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } };

/** GET and POST of a list and of one item, for a model. */
function listing(label: string, summary: string, filterExample: string, item: { description: string; type?: 'string' | 'integer' }): Record<string, unknown> {
  const model = `Enterprise${label}`;
  const listReply = {
    '200': { description: `${summary}, filtered; with \`fields\` only those fields`, headers: cached, content: { 'application/json': { schema: { type: 'array', items: { anyOf: [ref(model), ref(`Sparse${model}`)] } } } } },
    '304': { description: 'Not modified (If-None-Match matched the ETag)' },
    ...common,
  };
  const itemReply = {
    '200': { description: `One ${label.toLowerCase()}; with \`fields\` only those fields`, headers: cached, content: { 'application/json': { schema: { anyOf: [ref(model), ref(`Sparse${model}`)] } } } },
    '304': { description: 'Not modified (If-None-Match matched the ETag)' },
    '404': message(`no such ${label.toLowerCase()}`),
    ...common,
  };
  const idParameter = identifier(item.description, item.type);
  const body = (name: string) => ({ required: false, content: { 'application/json': { schema: ref(name) } } });
  return {
    list: {
      get: { summary, parameters: [fieldsParameter, filtersParameter(filterExample), ifNoneMatch], responses: listReply },
      post: { summary: `${summary} (options in the JSON body)`, parameters: [ifNoneMatch], requestBody: body('ListRequest'), responses: listReply },
    },
    item: {
      get: { summary: `One ${label.toLowerCase()}`, parameters: [idParameter, fieldsParameter, ifNoneMatch], responses: itemReply },
      post: { summary: `One ${label.toLowerCase()} (options in the JSON body)`, parameters: [idParameter, ifNoneMatch], requestBody: body('ItemRequest'), responses: itemReply },
    },
  };
}

export function enterprisePaths(): Record<string, unknown> {
  const articleReply = {
    '200': {
      description: 'At most `limit` Articles in the Enterprise Article model (metadata and article_body), one per matching project, by project code; with `fields` only those fields',
      headers: cached,
      content: { 'application/json': { schema: { type: 'array', maxItems: MAX_LIMIT, items: { anyOf: [ref('EnterpriseArticle'), ref('SparseEnterpriseArticle')] } } } },
    },
    '304': { description: 'Not modified (If-None-Match matched the ETag)' },
    '400': message('invalid title (named reason)'),
    '404': message('no such article in the store or on the wiki'),
    '414': message('the name in the URL is longer than 1024 characters'),
    '502': message('the wiki is unreachable or failing'),
    '504': message('the wiki did not answer in time'),
    ...common,
  };
  const nameParameter = { name: 'name', in: 'path', required: true, description: 'Title in URL form (underscores for spaces, percent-encoded)', schema: { type: 'string' } };
  const limitParameter = { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT } };
  const projects = listing('Project', 'Projects the store holds articles of', 'in_language.identifier:en', { description: 'Project code, e.g. enwiki' });
  const codes = listing('Code', 'Project types (codes)', 'identifier:wiki', { description: 'Project type, e.g. wiki' });
  const languages = listing('Language', 'Languages of the stored projects and articles', 'direction:rtl', { description: 'Language code, e.g. en' });
  const namespaces = listing('Namespace', 'Namespaces', 'identifier:0', { description: 'Namespace number, e.g. 0', type: 'integer' });
  const snapshots = listing('Snapshot', 'Structured snapshots built from the store', 'is_part_of.identifier:enwiki', {
    description: 'Snapshot identifier: <project>_namespace_<number>, e.g. enwiki_namespace_0',
  });
  const downloadHeaders = {
    'Content-Length': { schema: { type: 'integer' } },
    'Accept-Ranges': { schema: { type: 'string' } },
    ETag: { description: 'Strong: the snapshot version', schema: { type: 'string' } },
    'Last-Modified': { schema: { type: 'string' } },
    'Content-Disposition': { schema: { type: 'string' } },
  };
  const download = {
    parameters: [
      identifier('Snapshot identifier, e.g. enwiki_namespace_0'),
      { name: 'Range', in: 'header', required: false, description: 'One byte range: bytes=0-499, bytes=500-, bytes=-500 (several ranges: the whole file)', schema: { type: 'string' } },
      { name: 'If-Range', in: 'header', required: false, description: 'The ETag or Last-Modified the other pieces came from: the range is honoured only if it is still current', schema: { type: 'string' } },
    ],
    responses: {
      '200': { description: 'The whole .tar.gz: NDJSON entries of structured Articles', headers: downloadHeaders, content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } } },
      '206': {
        description: 'The byte range asked for',
        headers: { ...downloadHeaders, 'Content-Range': { schema: { type: 'string' } } },
        content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } },
      },
      '304': { description: 'Not modified (If-None-Match matched the ETag)' },
      '404': message('no such snapshot (not built)'),
      '416': { ...message('no byte of the range exists'), headers: { 'Content-Range': { description: 'bytes */<size>', schema: { type: 'string' } } } },
      ...common,
    },
  };
  return {
    '/v2/articles/{name}': {
      get: { summary: 'An article in the Enterprise Article model, in every matching project', parameters: [nameParameter, limitParameter, fieldsParameter, filtersParameter('is_part_of.identifier:enwiki'), ifNoneMatch], responses: articleReply },
      post: {
        summary: 'The same as GET, with limit, fields and filters in the JSON body',
        parameters: [nameParameter, ifNoneMatch],
        requestBody: { required: false, content: { 'application/json': { schema: ref('ArticleLookupRequest') } } },
        responses: articleReply,
      },
    },
    '/v2/projects': projects['list'],
    '/v2/projects/{identifier}': projects['item'],
    '/v2/codes': codes['list'],
    '/v2/codes/{identifier}': codes['item'],
    '/v2/languages': languages['list'],
    '/v2/languages/{identifier}': languages['item'],
    '/v2/namespaces': namespaces['list'],
    '/v2/namespaces/{identifier}': namespaces['item'],
    '/v2/snapshots/structured-contents': snapshots['list'],
    '/v2/snapshots/structured-contents/{identifier}': snapshots['item'],
    '/v2/snapshots/structured-contents/{identifier}/download': {
      get: { summary: 'Download a structured snapshot (streamed; Range for parallel pieces)', ...download },
      head: { summary: 'The download headers alone: its size (Content-Length), ETag, Last-Modified', ...download },
    },
  };
}
