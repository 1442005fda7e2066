/**
 * Writes samples/articles.ndjson.gz: the few real articles a fresh embedded store is seeded with,
 * so that the README's curl session answers with no network and no import step.
 *
 *   npx tsx scripts/make-samples.ts [corpus dir]
 *
 * The envelopes come from the shared corpus (Wikimedia Enterprise test data; Wikipedia content
 * under CC BY-SA 4.0: see samples/NOTICE.md). The output is deterministic (gzip without a time
 * stamp, records in this order), so re-running it changes nothing unless the list does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { corpusDir } from './conformance/corpus.js';

/**
 * Albert Einstein in three projects shows `limit` and the project filter; Joséphine Baker is a
 * second language. Four articles, about 600 KB compressed.
 */
export const SAMPLE_ENVELOPES = [
  'enwiki__Albert_Einstein.json',
  'simplewiki__Albert_Einstein.json',
  'enwikiversity__Albert_Einstein.json',
  'frwiki__Josephine_Baker.json',
];

const corpus = process.argv[2] ?? corpusDir();
if (corpus === undefined) {
  console.error('make-samples: corpus not found ($WIKISTRUCT_CORPUS or ../shared/corpus)');
  process.exit(1);
}
const lines = SAMPLE_ENVELOPES.map((file) => JSON.stringify(JSON.parse(readFileSync(join(corpus, 'articles', file), 'utf8'))));
const out = join(import.meta.dirname, '..', 'samples', 'articles.ndjson.gz');
writeFileSync(out, gzipSync(`${lines.join('\n')}\n`, { level: 9 }));
console.log(`make-samples: ${SAMPLE_ENVELOPES.length} articles → ${out}`);
