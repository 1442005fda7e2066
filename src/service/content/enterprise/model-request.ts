/**
 * What a request to the Enterprise endpoints asks for, read from a POST body or a GET query
 * (query.ts has the encoding) and validated strictly, like structured contents (request.ts): an
 * unknown key, parameter, filter field or model field is a 422 that names it.
 *
 * - article lookup (`/v2/articles/{name}`): `filters` on project and language, `fields` of the
 *   Enterprise Article, `limit` — the structured-contents request, with the other model;
 * - lists (`/v2/projects`, `/v2/languages`, …, the snapshot list): `filters` on any field of the
 *   listed model (`{"field": "identifier", "value": "enwiki"}`, AND-combined) and `fields`;
 * - single items (`/v2/projects/{identifier}`, …): `fields` only.
 */
import { z } from 'zod';
import { unprocessable } from '../../errors.js';
import { storableText } from '../../storable.js';
import { UnknownFieldError } from '../fields.js';
import { requestOfQuery, type RawQuery } from '../query.js';
import { DEFAULT_LIMIT, FilterSchema, MAX_FIELDS, MAX_LIMIT } from '../request.js';
import { EnterpriseArticleModel } from './models.js';
import { modelPath } from './model-fields.js';

const LIMIT_MESSAGE = `must be an integer from 1 to ${MAX_LIMIT}`;

/** A dot path into `model`, checked. */
function pathSchema(model: z.ZodType, label: string): z.ZodString {
  return z
    .string()
    .max(256, 'must be at most 256 characters')
    .superRefine((path, ctx) => {
      try {
        modelPath(model, label, path);
      } catch (error) {
        if (!(error instanceof UnknownFieldError)) throw error;
        ctx.addIssue({ code: 'custom', message: error.message, input: path });
      }
    });
}

function fieldsSchema(model: z.ZodType, label: string) {
  return z
    .array(pathSchema(model, label))
    .min(1, 'must name at least one field')
    .max(MAX_FIELDS, `at most ${MAX_FIELDS} fields`)
    .optional()
    .meta({ description: `Return only these fields of each ${label}, in dot notation, nested as in the full ${label}` });
}

export const ArticleLookupRequest = z.strictObject({
  filters: z.array(FilterSchema).max(10, 'at most 10 filters').optional(),
  fields: fieldsSchema(EnterpriseArticleModel, 'Article'),
  limit: z
    .number({ message: LIMIT_MESSAGE })
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(MAX_LIMIT, LIMIT_MESSAGE)
    .default(DEFAULT_LIMIT)
    .meta({ description: `At most this many Articles, one per project (first by project code); default ${DEFAULT_LIMIT}` }),
});
export type ArticleLookupRequest = z.infer<typeof ArticleLookupRequest>;

/** A filter of a list: a field of the listed model equal to a value (compared as text, so `0` and `"0"` agree). */
function listFilterSchema(model: z.ZodType, label: string) {
  return z.strictObject({
    field: pathSchema(model, label),
    value: z.union([storableText(z.string().max(256, 'must be at most 256 characters')), z.number(), z.boolean()], {
      message: 'must be a string, a number or a boolean',
    }),
  });
}

export function listRequestSchema(model: z.ZodType, label: string) {
  return z.strictObject({
    filters: z.array(listFilterSchema(model, label)).max(10, 'at most 10 filters').optional(),
    fields: fieldsSchema(model, label),
  });
}
export type ListRequest = z.infer<ReturnType<typeof listRequestSchema>>;

export function itemRequestSchema(model: z.ZodType, label: string) {
  return z.strictObject({ fields: fieldsSchema(model, label) });
}
export type ItemRequest = z.infer<ReturnType<typeof itemRequestSchema>>;

/** A POST's JSON body (empty: no options); a query string there is refused, not silently ignored. */
export function fromPost<T>(schema: z.ZodType<T>, body: unknown, query: RawQuery): T {
  const [name] = Object.keys(query);
  if (name !== undefined) throw unprocessable(`${name}: query parameters are read on GET only; a POST sends them in its JSON body`);
  let value: unknown = {};
  if (typeof body === 'string' && body.trim() !== '') {
    try {
      value = JSON.parse(body);
    } catch {
      throw unprocessable('request body is not valid JSON');
    }
  }
  return validated(schema, value);
}

export function fromGet<T>(schema: z.ZodType<T>, query: RawQuery): T {
  return validated(schema, requestOfQuery(query));
}

/** The request, or a 422 naming the first problem's field. */
function validated<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue === undefined) throw unprocessable('invalid request');
  if (issue.code === 'unrecognized_keys') throw unprocessable(`${[issue.path.join('.'), issue.keys.join(', ')].filter((s) => s !== '').join(': ')}: unexpected field`);
  const field = issue.path.join('.');
  if (field === '') throw unprocessable('request body must be a JSON object');
  throw unprocessable(`${field}: ${issue.message}`);
}
