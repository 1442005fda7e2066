/**
 * What a structured-contents request asks for, as the POST body or the GET query carries it
 * (routes/read.ts reads either; routes/validate.ts checks it against these shapes):
 * optional filters (AND-combined), `fields` in dot notation, and `limit` (at most that many
 * Articles, one per project). Strict: an unknown key, filter field or Article field is a 422
 * that names it.
 */
import { z } from 'zod';
import { storableText } from '../storable.js';
import { ArticleSchema } from '../../schema/article.js';
import { modelPath, UnknownFieldError } from './fields.js';

export const FILTER_FIELDS = ['is_part_of.identifier', 'in_language.identifier'] as const;
export const DEFAULT_LIMIT = 3;
export const MAX_LIMIT = 10;
/** A bound on the work one request can ask for (each path is checked and applied). */
export const MAX_FIELDS = 64;

const LIMIT_MESSAGE = `must be an integer from 1 to ${MAX_LIMIT}`;

export const FilterSchema = z.strictObject({
  field: z.enum(FILTER_FIELDS, { message: `unknown filter field; expected one of ${FILTER_FIELDS.join(', ')}` }),
  value: storableText(z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters')),
});

/** Project and language filters, AND-combined: the article lookup's on every endpoint that has one. */
export const FiltersSchema = z.array(FilterSchema).max(10, 'at most 10 filters').optional();

/** `limit` of an article lookup (structured contents and Enterprise `/v2/articles/{name}`). */
export const LimitSchema = z
  .number({ message: LIMIT_MESSAGE })
  .int(LIMIT_MESSAGE)
  .min(1, LIMIT_MESSAGE)
  .max(MAX_LIMIT, LIMIT_MESSAGE)
  .default(DEFAULT_LIMIT)
  .meta({ description: `At most this many Articles, one per project (first by project code); default ${DEFAULT_LIMIT}` });

/** A dot path into `model` (`label` in messages), checked: an unknown segment is a 422 that names it. */
export function fieldPathSchema(model: z.ZodType, label: string): z.ZodString {
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

/**
 * `fields` of a request: one to MAX_FIELDS dot paths into `model`, each checked. The OpenAPI
 * text says what a path is when `pathDescription` is given; `description` defaults to the
 * Enterprise models' wording.
 */
export function fieldsSchema(model: z.ZodType, label: string, docs: { description?: string; pathDescription?: string } = {}) {
  const path = fieldPathSchema(model, label);
  return z
    .array(docs.pathDescription === undefined ? path : path.meta({ description: docs.pathDescription }))
    .min(1, 'must name at least one field')
    .max(MAX_FIELDS, `at most ${MAX_FIELDS} fields`)
    .optional()
    .meta({ description: docs.description ?? `Return only these fields of each ${label}, in dot notation, nested as in the full ${label}` });
}

export const StructuredContentsRequest = z.strictObject({
  filters: FiltersSchema,
  fields: fieldsSchema(ArticleSchema, 'Article', {
    description: 'Return only these fields of each Article, nested as in the full Article',
    pathDescription: 'A field of the Article in dot notation: "name", "version.identifier", "infoboxes.name" (inside every element of an array)',
  }),
  limit: LimitSchema,
});
export type StructuredContentsRequest = z.infer<typeof StructuredContentsRequest>;

/** What the filters ask for: every value a field must equal (several values for one field: nothing matches). */
export interface Criteria {
  /** undefined: any project. */
  project?: string;
  language?: string;
  /** Two different values for one field: no article can match. */
  contradictory: boolean;
  /** At most this many projects' Articles. */
  limit: number;
}

export function criteriaOf(request: StructuredContentsRequest): Criteria {
  const criteria: Criteria = { contradictory: false, limit: request.limit };
  for (const filter of request.filters ?? []) {
    const key = filter.field === 'is_part_of.identifier' ? 'project' : 'language';
    const before = criteria[key];
    if (before !== undefined && before !== filter.value) criteria.contradictory = true;
    criteria[key] = filter.value;
  }
  return criteria;
}

/** The first `limit` of several projects' rows, by project code: which ones a limit keeps. */
export function firstProjects<T extends { project: string }>(rows: readonly T[], limit: number): T[] {
  return [...rows].sort((a, b) => (a.project < b.project ? -1 : a.project > b.project ? 1 : 0)).slice(0, limit);
}
