/**
 * The output contract as JSON Schema (draft 2020-12), generated from the zod schemas so the two
 * can never disagree. The recursive Part is emitted once under $defs and referenced by $ref.
 */
import { z } from 'zod';
import { ArticleSchema } from './article.js';

export const ARTICLE_SCHEMA_ID = 'https://wikistruct.dev/schema/article.schema.json';

export function articleJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ArticleSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  return {
    $schema: schema.$schema,
    $id: ARTICLE_SCHEMA_ID,
    title: 'wikistruct Article',
    description: 'One encyclopedia article as structured JSON. Generated from src/schema/article.ts by `npm run schema`; do not edit by hand.',
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')),
  };
}

/** The exact text of the checked-in grammar/article.schema.json. */
export function articleJsonSchemaText(): string {
  return `${JSON.stringify(articleJsonSchema(), null, 2)}\n`;
}
