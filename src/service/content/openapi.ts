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
import { ParseRequestSchema } from '../explorer/parse-request.js';
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

/**
 * With source hints (`POST /v2/parse` with `source_positions`, `GET /v2/source` of stored HTML)
 * each block-level Part carries `source` (engine/source-positions.ts), which the Article contract
 * does not have. `Sourced<Name>` twins of the definitions that reach Part allow it there and only
 * there, so the strict Article still refuses it.
 */
function addSourcedTwins(components: Record<string, unknown>, names: string[]): void {
  const refsOf = (name: string) => [...JSON.stringify(components[name]).matchAll(/"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]!);
  const reaches = new Set(['Part']);
  for (let grew = true; grew; ) {
    grew = false;
    for (const name of names) {
      if (!reaches.has(name) && refsOf(name).some((ref) => reaches.has(ref))) {
        reaches.add(name);
        grew = true;
      }
    }
  }
  const twin = (schema: unknown): unknown =>
    JSON.parse(JSON.stringify(schema).replace(/"#\/components\/schemas\/(\w+)"/g, (whole, name: string) => (reaches.has(name) ? `"${REF}Sourced${name}"` : whole)));
  for (const name of reaches) components[`Sourced${name}`] = twin(components[name]);
  const part = components['SourcedPart'] as { properties: Record<string, unknown> };
  part.properties['source'] = {
    type: 'object',
    description: 'The element of the input that produced this Part: its index in document order among all elements (0-based) and its tag name',
    properties: { element: { type: 'integer', minimum: 0 }, tag: { type: 'string' } },
    required: ['element', 'tag'],
    additionalProperties: false,
  };
}

export function contentOpenApiDocument(): Record<string, unknown> {
  const article = articleJsonSchema();
  const defs = (article['$defs'] ?? {}) as Record<string, unknown>;
  const components = JSON.parse(JSON.stringify(defs).replaceAll('"#/$defs/', `"${REF}`)) as Record<string, unknown>;
  const names = Object.keys(components);
  for (const [name, schema] of Object.entries(components)) components[`Sparse${name}`] = sparse(schema);
  addSourcedTwins(components, names);
  const bare = (s: z.ZodType, io: 'input' | 'output') => {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
    return rest;
  };
  components['Message'] = bare(Message, 'output');
  components['StructuredContentsRequest'] = bare(StructuredContentsRequest, 'input');
  components['ParseRequest'] = {
    ...bare(ParseRequestSchema, 'input'),
    description: '`{html}` (a page, rendered or Parsoid, or an envelope) or `{wikitext, name, project}`; `source_positions` (HTML only) adds a `source` hint to each block-level Part',
  };
  components['SourceReply'] = {
    type: 'object',
    properties: {
      project: { type: 'string' },
      name: { type: 'string' },
      revision: { type: 'integer' },
      format: { type: 'string', enum: ['html', 'wikitext'] },
      source: { type: 'string', description: 'The stored HTML (preferred) or wikitext' },
      article: {
        description: 'The Article parsed again from `source`, with source hints when it is HTML',
        anyOf: [{ $ref: `${REF}Article` }, { $ref: `${REF}SourcedArticle` }],
      },
    },
    required: ['project', 'name', 'revision', 'format', 'source', 'article'],
    additionalProperties: false,
  };
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
    '422': message('malformed body or query, unknown filter, field or parameter, limit out of range; or an article over a work limit of the engine, INPUT_TOO_COMPLEX (the message names it)'),
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
      ...explorerPaths(message, responses['401'], titleParameter),
      ...enterprisePaths(),
      '/healthz': { get: { summary: 'Liveness and database check', security: [], responses: { '200': { description: 'ok' } } } },
      '/readyz': { get: { summary: 'Database reachable and migrations applied', security: [], responses: { '200': { description: 'ready' }, '503': message('not ready') } } },
      '/metrics': { get: { summary: 'Prometheus metrics', security: [], responses: { '200': { description: 'text exposition format' } } } },
    },
  };
}

type MessageReply = (description: string) => Record<string, unknown>;

/** The explorer's routes (service/explorer/parse-route.ts): always whole Articles, never stored. */
function explorerPaths(message: MessageReply, unauthorized: Record<string, unknown>, titleParameter: Record<string, unknown>): Record<string, unknown> {
  const noStore = { 'Cache-Control': { description: 'no-store', schema: { type: 'string' } } };
  const common = {
    '401': unauthorized,
    '422': message('malformed body or query: not JSON, an unknown or mistyped field, html and wikitext together, an unknown project; or a page over a work limit of the engine, INPUT_TOO_COMPLEX (the message names it)'),
    '429': { ...message('rate limited: parsing has a limit of its own (Retry-After)'), headers: { 'Retry-After': { schema: { type: 'integer' } } } },
  };
  return {
    '/v2/parse': {
      post: {
        summary: 'Parse HTML or wikitext sent in the body into an Article; nothing is stored',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `${REF}ParseRequest` } } } },
        responses: {
          '200': {
            description: 'The Article; with `source_positions` its block-level Parts carry `source` hints',
            headers: noStore,
            content: { 'application/json': { schema: { anyOf: [{ $ref: `${REF}Article` }, { $ref: `${REF}SourcedArticle` }] } } },
          },
          ...common,
          '413': message('the body, or the html or wikitext in it, is larger than the configured limit'),
        },
      },
    },
    '/v2/source/{article_name}': {
      get: {
        summary: "A stored article's source (HTML or wikitext) and its Article parsed again, for side-by-side viewing",
        parameters: [
          titleParameter,
          { name: 'project', in: 'query', required: true, description: 'Project code, e.g. enwiki (the only query parameter)', schema: { type: 'string' } },
        ],
        responses: {
          '200': { description: 'The source and its Article', headers: noStore, content: { 'application/json': { schema: { $ref: `${REF}SourceReply` } } } },
          '400': message('invalid title (named reason)'),
          ...common,
          '404': message('no stored article with that title in the project, or one without a kept source'),
          '413': message('the stored source is larger than the engine accepts'),
        },
      },
    },
  };
}
