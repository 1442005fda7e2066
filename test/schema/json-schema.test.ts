import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { articleJsonSchema, articleJsonSchemaText } from '../../src/schema/json-schema.js';

const checkedIn = new URL('../../grammar/article.schema.json', import.meta.url);

describe('grammar/article.schema.json', () => {
  it('is identical to what the zod schemas generate (run `npm run schema` after changing them)', () => {
    expect(readFileSync(checkedIn, 'utf8')).toBe(articleJsonSchemaText());
  });

  it('describes the recursive Part once and refers to it from has_parts', () => {
    const schema = articleJsonSchema() as { $defs: Record<string, { properties: Record<string, unknown> }> };
    const part = schema.$defs.Part;
    expect(part, 'Part is a named definition').toBeDefined();
    expect(part!.properties.has_parts).toEqual({ type: 'array', items: { $ref: '#/$defs/Part' } });
  });

  it('requires the four structured arrays of an Article', () => {
    const schema = articleJsonSchema() as { $defs: { Article: { required: string[] } } };
    expect(schema.$defs.Article.required).toEqual(expect.arrayContaining(['sections', 'infoboxes', 'tables', 'references']));
  });
});
