/**
 * The body of POST /v2/structured-contents/{article_name}: optional filters (AND-combined) and an
 * optional list of top-level Article fields to return. Strict: an unknown key or filter field is
 * a 422 that names it.
 */
import { z } from 'zod';
import { ArticleSchema } from '../../schema/article.js';

export const FILTER_FIELDS = ['is_part_of.identifier', 'in_language.identifier'] as const;
export const ARTICLE_FIELDS = Object.keys(ArticleSchema.shape) as [keyof typeof ArticleSchema.shape, ...(keyof typeof ArticleSchema.shape)[]];

export const FilterSchema = z.strictObject({
  field: z.enum(FILTER_FIELDS, { message: `unknown filter field; expected one of ${FILTER_FIELDS.join(', ')}` }),
  value: z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters'),
});

export const StructuredContentsRequest = z.strictObject({
  filters: z.array(FilterSchema).max(10, 'at most 10 filters').optional(),
  fields: z
    .array(z.enum(ARTICLE_FIELDS, { message: `unknown Article field; expected one of ${ARTICLE_FIELDS.join(', ')}` }))
    .min(1, 'must name at least one field')
    .optional(),
});
export type StructuredContentsRequest = z.infer<typeof StructuredContentsRequest>;

/** What the filters ask for: every value a field must equal (several values for one field: nothing matches). */
export interface Criteria {
  /** undefined: any project. */
  project?: string;
  language?: string;
  /** Two different values for one field: no article can match. */
  contradictory: boolean;
}

export function criteriaOf(request: StructuredContentsRequest): Criteria {
  const criteria: Criteria = { contradictory: false };
  for (const filter of request.filters ?? []) {
    const key = filter.field === 'is_part_of.identifier' ? 'project' : 'language';
    const before = criteria[key];
    if (before !== undefined && before !== filter.value) criteria.contradictory = true;
    criteria[key] = filter.value;
  }
  return criteria;
}

/** The Article JSON text with only `fields` kept, in the Article's own key order. */
export function project(json: string, fields: readonly string[]): string {
  const article = JSON.parse(json) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fields) if (article[field] !== undefined) out[field] = article[field];
  return JSON.stringify(out);
}
