/**
 * OpenAPI 3.1 document of the content API. The Article schema is generated from the zod schemas
 * (the same source as grammar/article.schema.json); its $defs become components, so the recursive
 * Part stays one `$ref`-ed definition instead of an unrolled tree.
 *
 * A reply with `fields` holds only some fields at any depth ("version.comment" gives a Version
 * without its required identifier), so every definition also has a sparse twin, `Sparse<Name>`:
 * the same properties, none required, still no others. The reply's items are either.
 * test/service/content/openapi.test.ts validates real replies against this document.
 */
import { z } from 'zod';
import { articleJsonSchema } from '../../schema/json-schema.js';
import { Message } from '../auth/schemas.js';
import { enterpriseComponents, enterprisePaths } from './enterprise/openapi.js';
import { DEFAULT_LIMIT, MAX_LIMIT, StructuredContentsRequest } from './request.js';

const REF = '#/components/schemas/';

/** A copy of a schema with no `required` anywhere and every reference to a definition made to its sparse twin. */
function sparse(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(sparse);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required') continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith(REF)) out[key] = `${REF}Sparse${value.slice(REF.length)}`;
    else out[key] = sparse(value);
  }
  return out;
}

export function contentOpenApiDocument(): Record<string, unknown> {
  const article = articleJsonSchema();
  const defs = (article['$defs'] ?? {}) as Record<string, unknown>;
  const components = JSON.parse(JSON.stringify(defs).replaceAll('"#/$defs/', `"${REF}`)) as Record<string, unknown>;
  for (const [name, schema] of Object.entries(components)) components[`Sparse${name}`] = sparse(schema);
  const bare = (s: z.ZodType, io: 'input' | 'output') => {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
    return rest;
  };
  components['Message'] = bare(Message, 'output');
  components['StructuredContentsRequest'] = bare(StructuredContentsRequest, 'input');
  Object.assign(components, enterpriseComponents(sparse));
  const message = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Message' } } },
  });
  const titleParameter = {
    name: 'article_name',
    in: 'path',
    required: true,
    description: 'Title in URL form (underscores for spaces, percent-encoded); normalised as MediaWiki does; at most 255 bytes of UTF-8 once decoded',
    schema: { type: 'string' },
  };
  const ifNoneMatch = { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } };
  const responses = {
    '200': {
      description: 'At most `limit` Articles, one per matching project, by project code. Each is a complete Article, or with `fields` only the fields asked for, nested as in the full Article.',
      headers: {
        ETag: { schema: { type: 'string' } },
        'Cache-Control': { schema: { type: 'string' } },
      },
      content: {
        'application/json': {
          schema: { type: 'array', maxItems: MAX_LIMIT, items: { anyOf: [{ $ref: `${REF}Article` }, { $ref: `${REF}SparseArticle` }] } },
        },
      },
    },
    '304': { description: 'Not modified (If-None-Match matched the ETag)' },
    '400': message('invalid title (named reason), e.g. longer than 255 bytes'),
    '401': {
      ...message('missing, malformed, expired or revoked access token'),
      headers: { 'WWW-Authenticate': { description: 'Bearer realm="wikistruct", with error="invalid_token" when a token was sent', schema: { type: 'string' } } },
    },
    '403': message('account disabled'),
    '404': message('no such article in the store or on the wiki'),
    '405': { ...message('method not allowed on this path'), headers: { Allow: { schema: { type: 'string' } } } },
    '414': message('the title in the URL is longer than 1024 characters'),
    '422': message('malformed body or query, unknown filter, field or parameter, limit out of range (the message names it)'),
    '429': message('rate limited (Retry-After)'),
    '502': message('the wiki is unreachable or failing'),
    '504': message('the wiki did not answer in time'),
  };
  const queryParameters = [
    {
      name: 'limit',
      in: 'query',
      required: false,
      description: `At most this many Articles, one per project (default ${DEFAULT_LIMIT})`,
      schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
    },
    {
      name: 'fields',
      in: 'query',
      required: false,
      description: 'Article fields in dot notation; repeat the parameter or give a comma list: `fields=name&fields=version.identifier` or `fields=name,version.identifier`',
      style: 'form',
      explode: true,
      schema: { type: 'array', items: { type: 'string' } },
    },
    {
      name: 'filters',
      in: 'query',
      required: false,
      description:
        'Filters, AND-combined: `field:value` (split at the first colon; repeat or comma list), e.g. `filters=is_part_of.identifier:enwiki`; or JSON text, a filter or an array of them, e.g. `filters=[{"field":"in_language.identifier","value":"en"}]` (needed for a value with a comma)',
      style: 'form',
      explode: true,
      schema: { type: 'array', items: { type: 'string' } },
    },
  ];
  return {
    openapi: '3.1.0',
    info: { title: 'wikistruct content API', version: '2' },
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'access token from POST /v1/login' } },
    },
    security: [{ bearer: [] }],
    paths: {
      '/v2/structured-contents/{article_name}': {
        post: {
          summary: 'Structured contents of one article in every matching project',
          parameters: [titleParameter, ifNoneMatch],
          requestBody: {
            required: false,
            content: { 'application/json': { schema: { $ref: `${REF}StructuredContentsRequest` } } },
          },
          responses,
        },
        get: {
          summary: 'The same as POST, with limit, fields and filters in the query string',
          parameters: [titleParameter, ...queryParameters, ifNoneMatch],
          responses,
        },
      },
      ...enterprisePaths(),
      '/healthz': { get: { summary: 'Liveness and database check', security: [], responses: { '200': { description: 'ok' } } } },
      '/readyz': { get: { summary: 'Database reachable and migrations applied', security: [], responses: { '200': { description: 'ready' }, '503': message('not ready') } } },
      '/metrics': { get: { summary: 'Prometheus metrics', security: [], responses: { '200': { description: 'text exposition format' } } } },
    },
  };
}
