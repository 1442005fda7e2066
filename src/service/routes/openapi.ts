/**
 * /v1/openapi.json and /v2/openapi.json (OpenAPI 3.1, whose schemas are JSON Schema 2020-12,
 * what zod emits), written from the route table: each entry's summary, request, errors and
 * OpenAPI text, and schemas generated from the zod shapes.
 *
 * /v2's Article comes from the output contract (src/schema/article.ts); its $defs become
 * components, so the recursive Part stays one `$ref`-ed definition instead of an unrolled tree.
 * A reply with `fields` holds only some fields at any depth ("version.comment" gives a Version
 * without its required identifier), so every definition also has a sparse twin, `Sparse<Name>`:
 * the same properties, none required, still no others. test/service/content/openapi.test.ts
 * validates real replies of every route against these documents.
 */
import { z } from 'zod';
import { articleJsonSchema } from '../../schema/json-schema.js';
import { ParseRequestSchema } from '../../schema/parse-request.js';
import { SourceReplySchema } from '../../schema/source-reply.js';
import { Message } from '../auth/schemas.js';
import { itemRequestSchema, listRequestSchema, ArticleLookupRequest } from '../content/enterprise/model-request.js';
import { MODELS } from '../content/enterprise/models.js';
import { StructuredContentsRequest } from '../content/request.js';
import type { RouteEntry } from './route.js';

const REF = '#/components/schemas/';

/** A zod shape as JSON Schema, without `$schema`. */
function jsonSchema(shape: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(shape, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

const asJson = (schema: unknown) => ({ content: { 'application/json': { schema } } });

/** `/v2/articles/:name` → `/v2/articles/{name}`. */
const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

/** The OpenAPI operation of an entry; `version` decides where the shapes live (inline in /v1, components in /v2). */
function operation(entry: RouteEntry, version: 'v1' | 'v2'): Record<string, unknown> {
  const { responses: success, replyDescription, ...rest } = (entry.openapi ?? {}) as { responses?: Record<string, unknown>; replyDescription?: string };
  const responses: Record<string, unknown> = { ...success };
  if (success === undefined && entry.reply !== undefined) {
    responses['200'] = { description: replyDescription ?? 'success', ...asJson(jsonSchema(entry.reply, 'output')) };
  }
  if (Array.isArray(entry.errors)) {
    const statuses = entry.errors.length === 0 ? [] : [...entry.errors, 500];
    for (const status of statuses) responses[String(status)] = { description: `error (status ${status})`, ...asJson(jsonSchema(Message, 'output')) };
  } else {
    Object.assign(responses, entry.errors);
  }
  const out: Record<string, unknown> = { summary: entry.summary };
  // A public route in a document whose default is the bearer token.
  if (version === 'v2' && entry.guard === undefined) out['security'] = [];
  if (version === 'v1' && entry.request !== undefined && entry.method === 'POST') {
    out['requestBody'] = { required: true, ...asJson(jsonSchema(entry.request, 'input')) };
  }
  return { ...out, ...rest, responses };
}

function paths(entries: readonly RouteEntry[], version: 'v1' | 'v2'): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const entry of entries) {
    if (entry.undocumented === true) continue;
    const documented = entry.part === 'always' ? (entry.documentedIn ?? []).includes(version) : entry.path.startsWith(`/${version}/`);
    if (!documented) continue;
    (out[openApiPath(entry.path)] ??= {})[entry.method.toLowerCase()] = operation(entry, version);
  }
  return out;
}

/** /v1/openapi.json: the auth API, every shape inline. */
export function v1OpenApiDocument(entries: readonly RouteEntry[]): Record<string, unknown> {
  return { openapi: '3.1.0', info: { title: 'wikistruct authentication service', version: '1' }, paths: paths(entries, 'v1') };
}

/** /v2/openapi.json: the content API, its shapes as components. */
export function v2OpenApiDocument(entries: readonly RouteEntry[]): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'wikistruct content API', version: '2' },
    components: {
      schemas: v2Components(),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'access token from POST /v1/login' } },
    },
    security: [{ bearer: [] }],
    paths: paths(entries, 'v2'),
  };
}

/** The schemas /v2's entries refer to, each generated from its zod shape. */
function v2Components(): Record<string, unknown> {
  const article = articleJsonSchema();
  const defs = (article['$defs'] ?? {}) as Record<string, unknown>;
  const components = JSON.parse(JSON.stringify(defs).replaceAll('"#/$defs/', `"${REF}`)) as Record<string, unknown>;
  const names = Object.keys(components);
  for (const [name, schema] of Object.entries(components)) components[`Sparse${name}`] = sparse(schema);
  addSourcedTwins(components, names);
  components['Message'] = jsonSchema(Message, 'output');
  components['StructuredContentsRequest'] = jsonSchema(StructuredContentsRequest, 'input');
  components['ParseRequest'] = jsonSchema(ParseRequestSchema, 'input');
  components['SourceReply'] = sourceReplyComponent();
  for (const [name, model] of Object.entries(MODELS)) {
    // A model shares the Article's Version (src/schema): its definition is the Article's component.
    const { $defs: shared = {}, ...own } = jsonSchema(model, 'output') as { $defs?: Record<string, unknown> };
    const missing = Object.keys(shared).filter((def) => !names.includes(def));
    if (missing.length > 0) throw new Error(`openapi: ${name} defines ${missing.join(', ')}, which the Article does not`);
    const schema = JSON.parse(JSON.stringify(own).replaceAll('"#/$defs/', `"${REF}`)) as Record<string, unknown>;
    components[name] = schema;
    components[`Sparse${name}`] = sparse(schema);
  }
  components['ArticleLookupRequest'] = jsonSchema(ArticleLookupRequest, 'input');
  // Any model's: the field paths are checked against the listed model when a request comes.
  components['ListRequest'] = jsonSchema(listRequestSchema(z.object({}), 'listed model'), 'input');
  components['ItemRequest'] = jsonSchema(itemRequestSchema(z.object({}), 'listed model'), 'input');
  return components;
}

/** SourceReply from its shape, its Article either the contract's or the one with source hints. */
function sourceReplyComponent(): Record<string, unknown> {
  const schema = jsonSchema(SourceReplySchema.omit({ article: true }), 'output') as { properties: Record<string, unknown>; required: string[] };
  schema.properties['article'] = {
    description: SourceReplySchema.shape.article.description,
    anyOf: [{ $ref: `${REF}Article` }, { $ref: `${REF}SourcedArticle` }],
  };
  schema.required = [...schema.required, 'article'];
  return schema;
}

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
