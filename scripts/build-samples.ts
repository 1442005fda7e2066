/**
 * Parses the sample articles (samples/articles.ndjson.gz) and writes them as the store keeps them
 * into dist/samples/stored.ndjson.gz (src/service/content/samples.ts): a first `wikistruct serve`
 * inserts those rows and parses nothing. `npm run build` runs it after tsc (the engine's worker
 * thread runs the compiled dist/src/workers/worker.js).
 *
 * Each record goes through the importer's own `prepareRecord` on the service's engine client: the
 * rows are those `wikistruct import samples/articles.ndjson.gz` would store. The output is
 * deterministic (gzip without a time stamp, the input's order).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { isFailure, readInputs } from '../src/io/sources/index.js';
import { createEngineClient } from '../src/service/engine-client.js';
import { ENGINE_VERSION } from '../src/service/content/engine-version.js';
import { pageLinksInput, storedPageLinks } from '../src/service/content/enterprise/article-reply.js';
import { prepareRecord } from '../src/service/content/importer.js';
import { SAMPLES_FILE, STORED_SAMPLES_FILE, type StoredSample } from '../src/service/content/samples.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Writes the stored samples to `target` (default dist/samples/stored.ndjson.gz); returns how many. */
export async function buildSamples(target: string = join(ROOT, STORED_SAMPLES_FILE)): Promise<number> {
  const engine = createEngineClient({ threads: 1 });
  const lines: string[] = [];
  try {
    for await (const item of readInputs([join(ROOT, SAMPLES_FILE)], { exclude: new Set(), onRawBytes: () => {}, wholeFileLimit: 128 * 1024 * 1024 })) {
      if (isFailure(item)) throw new Error(`${item.source}:${item.position}: ${item.error}`);
      const prepared = await prepareRecord(item, { engine });
      if (prepared === 'skipped') throw new Error(`${item.source}:${item.position}: not an article`);
      const sample: StoredSample = { source: prepared.source, engineVersion: ENGINE_VERSION, article: prepared.json };
      // Read now, as the service would on the first request that needs them (ContentService.pageLinks).
      const input = pageLinksInput(prepared.source);
      if (input !== undefined) sample.pageLinks = storedPageLinks(await engine.pageLinks(input.html, input.base));
      lines.push(JSON.stringify(sample));
    }
  } finally {
    await engine.close();
  }
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}`;
  writeFileSync(partial, gzipSync(`${lines.join('\n')}\n`, { level: 9 }));
  renameSync(partial, target);
  return lines.length;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const count = await buildSamples();
  console.log(`samples: ${count} articles parsed into ${STORED_SAMPLES_FILE} (engine ${ENGINE_VERSION})`);
}
