/**
 * Writes the engine's output for every corpus input, one pretty JSON file each, so that a change
 * can be diffed against the output before it (`diff -r before after`): every HTML file and every
 * envelope through `parse`, and every envelope's wikitext through `parseWikitext`.
 *
 *   npx tsx scripts/dump-corpus.ts OUT_DIR [CORPUS_DIR]
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '../src/engine/parse.js';
import { parseWikitext } from '../src/engine/wikitext/index.js';

const [out, corpusArg] = process.argv.slice(2);
if (out === undefined) {
  console.error('usage: tsx scripts/dump-corpus.ts OUT_DIR [CORPUS_DIR]');
  process.exit(2);
}
const corpus = corpusArg ?? new URL('../../shared/corpus/', import.meta.url).pathname;
if (!existsSync(corpus)) {
  console.error(`no corpus at ${corpus}`);
  process.exit(2);
}
for (const dir of ['html', 'envelope', 'wikitext']) mkdirSync(join(out, dir), { recursive: true });
const write = (dir: string, name: string, value: unknown): void =>
  writeFileSync(join(out, dir, `${name}.json`), `${JSON.stringify(value, null, 1)}\n`);

for (const file of readdirSync(join(corpus, 'html')).filter((f) => f.endsWith('.html')).sort()) {
  write('html', file.replace(/\.html$/, ''), parse(readFileSync(join(corpus, 'html', file), 'utf8')));
}
for (const file of readdirSync(join(corpus, 'articles')).filter((f) => f.endsWith('.json')).sort()) {
  const envelope = JSON.parse(readFileSync(join(corpus, 'articles', file), 'utf8'));
  const name = file.replace(/\.json$/, '');
  write('envelope', name, parse(envelope));
  const project = envelope.is_part_of?.identifier;
  write('wikitext', name, parseWikitext(envelope.article_body.wikitext, {
    name: envelope.name,
    ...(project === undefined ? {} : { project }),
    ...(envelope.in_language?.identifier === undefined ? {} : { language: envelope.in_language.identifier }),
  }));
}
console.log(`wrote ${out}`);
