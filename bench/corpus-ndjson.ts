/**
 * The corpus as NDJSON records (envelopes as delivered, each .html wrapped as an envelope), and
 * files of it repeated N times: the input of the batch and memory benchmarks (bench/batch.ts,
 * bench/memory.ts), built the same way for both.
 */
import { createWriteStream, readFileSync, readdirSync } from 'node:fs';
import { once } from 'node:events';
import { basename, join } from 'node:path';

/** One JSON line per corpus input: the envelopes of articles/, then the pages of html/, by name. */
export function corpusRecords(corpus: string): string[] {
  const lines: string[] = [];
  for (const file of readdirSync(join(corpus, 'articles')).sort()) {
    if (file.endsWith('.json')) lines.push(JSON.stringify(JSON.parse(readFileSync(join(corpus, 'articles', file), 'utf8'))));
  }
  for (const file of readdirSync(join(corpus, 'html')).sort()) {
    if (!file.endsWith('.html')) continue;
    const html = readFileSync(join(corpus, 'html', file), 'utf8');
    lines.push(JSON.stringify({ name: basename(file, '.html').replace(/_/g, ' '), article_body: { html } }));
  }
  return lines;
}

/** Writes `records` `times` times over, one per line. */
export async function writeRepeated(path: string, records: readonly string[], times: number): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < times; i++) {
    for (const line of records) if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
