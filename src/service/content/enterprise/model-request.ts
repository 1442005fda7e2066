/**
 * What a request to the Enterprise endpoints asks for, read from a POST body or a GET query
 * (routes/read.ts; query.ts has the encoding) and validated strictly (routes/validate.ts), with the
 * pieces structured contents uses (request.ts: filters, limit, field paths): an unknown key,
 * parameter, filter field or model field is a 422 that names it.
 *
 * - article lookup (`/v2/articles/{name}`): `filters` on project and language, `fields` of the
 *   Enterprise Article, `limit` — the structured-contents request, with the other model;
 * - lists (`/v2/projects`, `/v2/languages`, …, the snapshot list): `filters` on any field of the
 *   listed model (`{"field": "identifier", "value": "enwiki"}`, AND-combined) and `fields`;
 * - single items (`/v2/projects/{identifier}`, …): `fields` only.
 */
import { z } from 'zod';
import { storableText } from '../../storable.js';
import { fieldPathSchema, fieldsSchema, FiltersSchema, LimitSchema } from '../request.js';
import { EnterpriseArticleModel } from './models.js';

export const ArticleLookupRequest = z.strictObject({
  filters: FiltersSchema,
  fields: fieldsSchema(EnterpriseArticleModel, 'Article'),
  limit: LimitSchema,
});
export type ArticleLookupRequest = z.infer<typeof ArticleLookupRequest>;

/** A filter of a list: a field of the listed model equal to a value (compared as text, so `0` and `"0"` agree). */
function listFilterSchema(model: z.ZodType, label: string) {
  return z.strictObject({
    field: fieldPathSchema(model, label),
    value: z.union([storableText(z.string().max(256, 'must be at most 256 characters')), z.number(), z.boolean()], {
      message: 'must be a string, a number or a boolean',
    }),
  });
}

export function listRequestSchema(model: z.ZodType, label: string) {
  return z.strictObject({
    filters: z
      .array(listFilterSchema(model, label))
      .max(10, 'at most 10 filters')
      .optional()
      .meta({ description: 'AND-combined: a field of the listed model (dot notation) equal to the value (compared as text)' }),
    fields: fieldsSchema(model, label, { description: 'Fields of the listed model in dot notation' }),
  });
}
export type ListRequest = z.infer<ReturnType<typeof listRequestSchema>>;

export function itemRequestSchema(model: z.ZodType, label: string) {
  return z.strictObject({ fields: fieldsSchema(model, label, { description: 'Fields of the item in dot notation' }) });
}
export type ItemRequest = z.infer<ReturnType<typeof itemRequestSchema>>;
