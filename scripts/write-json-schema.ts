/**
 * `npm run schema`: regenerates the checked-in JSON Schemas from the zod schemas —
 * grammar/article.schema.json (the output) and grammar/schema/<name>.schema.json (each grammar file).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GRAMMAR_NAMES, grammarJsonSchemaText } from '../src/engine/grammar/json-schema.js';
import { articleJsonSchemaText } from '../src/schema/json-schema.js';

const write = (relative: string, text: string): void => {
  const target = fileURLToPath(new URL(`../${relative}`, import.meta.url));
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
};

write('grammar/article.schema.json', articleJsonSchemaText());
mkdirSync(fileURLToPath(new URL('../grammar/schema/', import.meta.url)), { recursive: true });
for (const name of GRAMMAR_NAMES) write(`grammar/schema/${name}.schema.json`, grammarJsonSchemaText(name));
