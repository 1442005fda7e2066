/**
 * The JSON Schema of each grammar file, generated from its zod schema (./schemas.ts) so the two
 * cannot disagree, and checked in as grammar/schema/<name>.schema.json by `npm run schema` (a test
 * fails when a checked-in copy is stale). Each grammar file points at its own with `$schema`, so
 * an editor checks and completes it as it is written.
 */
import { z } from 'zod';
import { GRAMMAR_SCHEMAS } from './schemas.js';
import type { GrammarName } from './schemas.js';

export const GRAMMAR_NAMES = Object.keys(GRAMMAR_SCHEMAS) as GrammarName[];

export function grammarJsonSchema(name: GrammarName): Record<string, unknown> {
  const schema = z.toJSONSchema(GRAMMAR_SCHEMAS[name], { target: 'draft-2020-12' }) as Record<string, unknown>;
  return {
    $schema: schema.$schema,
    $id: `https://wikistruct.dev/schema/grammar/${name}.schema.json`,
    title: `wikistruct grammar/${name}.json`,
    description: `The rules file grammar/${name}.json. Generated from src/engine/grammar/schemas.ts by \`npm run schema\`; do not edit by hand.`,
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')),
  };
}

/** The exact text of the checked-in grammar/schema/<name>.schema.json. */
export function grammarJsonSchemaText(name: GrammarName): string {
  return `${JSON.stringify(grammarJsonSchema(name), null, 2)}\n`;
}
