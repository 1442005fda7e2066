/** grammar/schema/<name>.schema.json: generated from the loader's zod schemas, current, and true of the files. */
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { GRAMMAR_NAMES, grammarJsonSchema, grammarJsonSchemaText } from '../../src/engine/grammar/json-schema.js';

const grammarDir = new URL('../../grammar/', import.meta.url);
const schemaDir = new URL('../../grammar/schema/', import.meta.url);

describe('grammar/schema/', () => {
  it('holds one schema per grammar file, and nothing else', () => {
    expect(readdirSync(schemaDir).sort()).toEqual(GRAMMAR_NAMES.map((n) => `${n}.schema.json`).sort());
  });

  it.each(GRAMMAR_NAMES)('%s.schema.json is what the zod schema generates (run `npm run schema` after changing it)', (name) => {
    expect(readFileSync(new URL(`${name}.schema.json`, schemaDir), 'utf8')).toBe(grammarJsonSchemaText(name));
  });

  it.each(GRAMMAR_NAMES)('grammar/%s.json points at its schema and passes it', (name) => {
    const data = JSON.parse(readFileSync(new URL(`${name}.json`, grammarDir), 'utf8')) as Record<string, unknown>;
    expect(data.$schema, 'an editor finds the schema from the file').toBe(`./schema/${name}.schema.json`);
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(grammarJsonSchema(name));
    expect(validate(data) ? 'valid' : JSON.stringify(validate.errors), `grammar/${name}.json against its JSON Schema`).toBe('valid');
  });

  it('refuses what the loader refuses: a rule without its why, a misspelt key', () => {
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(grammarJsonSchema('tables'));
    const data = JSON.parse(readFileSync(new URL('tables.json', grammarDir), 'utf8')) as { dataClasses: { why?: string }[] };
    delete data.dataClasses[0]!.why;
    expect(validate(data), 'a rule without why').toBe(false);
    expect(validate({ ...JSON.parse(readFileSync(new URL('tables.json', grammarDir), 'utf8')), layoutClases: [] }), 'a misspelt key').toBe(false);
  });
});
