/** `npm run schema`: regenerates grammar/article.schema.json from the zod schemas. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { articleJsonSchemaText } from '../src/schema/json-schema.js';

const target = fileURLToPath(new URL('../grammar/article.schema.json', import.meta.url));
writeFileSync(target, articleJsonSchemaText());
console.log(`wrote ${target}`);
