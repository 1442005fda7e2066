/**
 * The sample articles shipped in `samples/articles.ndjson.gz` (see samples/NOTICE.md): a fresh
 * embedded store is seeded with them on the first start, so that a new user's first request is
 * answered with no network and no import step.
 *
 * The build parses them (scripts/build-samples.ts) and writes each as the store keeps it: its
 * source row and its Article JSON, with the engine version that made it. A first start only
 * inserts those rows. Parsing them there started a worker thread with the engine on it: a first
 * start peaked 35 MB higher (262-265 against 297-298 MB) and took 1-1.5 s more CPU to be ready
 * (bench/memory.ts, two rounds each, load average about 10).
 *
 * The build also stores these rows in the embedded database's template (pglite-template.ts,
 * scripts/build-pglite-template.ts): a first `serve` unpacks that and inserts nothing
 * (`samplesInTemplate`); `seedSamples` serves the stores made otherwise (a build without it).
 */
import { createReadStream, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { z } from 'zod';
import { packageFile } from '../../package-files.js';
import type { Clock } from '../clock.js';
import type { Db } from '../storage/db.js';
import { unpackTemplate } from '../storage/pglite-template.js';
import { ENGINE_VERSION } from './engine-version.js';
import type { ImportSummary } from './importer.js';
import { ArticleStore, StoredMetaSchema } from './store.js';

/** The envelopes, as delivered (the build step's input). */
export const SAMPLES_FILE = 'samples/articles.ndjson.gz';
/** The samples as the store keeps them, one StoredSample a line (shipped: `files` has dist/samples). */
export const STORED_SAMPLES_FILE = 'dist/samples/stored.ndjson.gz';
/** The snapshots of the samples, as a first start would build them, packed by the build (scripts/build-pglite-template.ts). */
export const SAMPLE_SNAPSHOTS_FILE = 'dist/samples/snapshots.tar.gz';

/** One line of STORED_SAMPLES_FILE. */
export const StoredSampleSchema = z.object({
  source: z.object({
    project: z.string(),
    title: z.string(),
    revision: z.number().int(),
    pageId: z.number().int().optional(),
    language: z.string().optional(),
    html: z.string().optional(),
    wikitext: z.string().optional(),
    meta: StoredMetaSchema,
    origin: z.literal('import'),
  }),
  /** The ENGINE_VERSION that parsed it. */
  engineVersion: z.string(),
  /** The engine's Article JSON text, byte for byte. */
  article: z.string(),
  /**
   * Its categories and templates read from the HTML, as ContentService.pageLinks saves them
   * (`{engine, categories, templates}` JSON), when its metadata lists none: regular snapshots
   * and /v2/articles then read them from the row, with no engine thread.
   */
  pageLinks: z.string().optional(),
});
export type StoredSample = z.infer<typeof StoredSampleSchema>;

export interface SeedResult {
  summary: ImportSummary;
  /** `Title (project)` of every sample, for the announcement. */
  articles: string[];
}

/**
 * Loads the samples when the store holds no article at all; undefined when it holds some (or the
 * package has no stored samples: a source tree that was never built). An Article made by another
 * engine version (grammar/*.json edited since the build) is left out: the article is parsed on
 * its first request, as every stored article is after an engine change.
 */
export async function seedSamples(db: Db, clock: Clock, file: string | undefined = packageFile(STORED_SAMPLES_FILE)): Promise<SeedResult | undefined> {
  if (file === undefined) return undefined;
  // EXISTS, not count(*): the check runs on every start of the embedded server.
  const any = await db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM articles) AS any');
  if (any[0]?.any === true) return undefined;
  const store = new ArticleStore(db, clock);
  const summary: ImportSummary = { records: 0, inserted: 0, replaced: 0, keptNewer: 0, skipped: 0, failed: 0, failures: [] };
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    const sample = StoredSampleSchema.parse(JSON.parse(line));
    summary.records += 1;
    const parsed = sample.engineVersion === ENGINE_VERSION ? { engineVersion: sample.engineVersion, json: sample.article } : undefined;
    const result = await store.upsert(sample.source, parsed);
    if (parsed !== undefined && sample.pageLinks !== undefined) await store.savePageLinks(sample.source.project, sample.source.title, sample.source.revision, sample.pageLinks);
    if (result === 'inserted') summary.inserted += 1;
    else if (result === 'replaced') summary.replaced += 1;
    else summary.keptNewer += 1;
  }
  const rows = await db.query<{ title: string; project: string }>('SELECT title, project FROM articles ORDER BY title, project');
  return { summary, articles: rows.map((r) => `${r.title} (${r.project})`) };
}

/**
 * Unpacks the samples' snapshots, built at build time, into a snapshots directory that is missing
 * or empty (a first start from the samples template); true when it did. Building them at the
 * first start instead grew the serving process by about 30 MB it kept (the start's idle 198-205
 * against 172 MB after a later start; bench/memory.ts): PGlite's memory grows to hold the articles
 * the build reads and is never given back.
 */
export async function unpackSampleSnapshots(dir: string, file: string | undefined = packageFile(SAMPLE_SNAPSHOTS_FILE)): Promise<boolean> {
  if (file === undefined) return false;
  if (existsSync(dir) && readdirSync(dir).length > 0) return false;
  mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
  await unpackTemplate(file, dir, null);
  return true;
}

/**
 * The samples of a store just unpacked from the template that holds them. Their rows were written
 * at build time: they are dated now, as `seedSamples` would have dated them (an article's age
 * decides when it is checked upstream again).
 */
export async function samplesInTemplate(db: Db, clock: Clock): Promise<SeedResult> {
  const now = clock.now().toISOString();
  const rows = await db.transaction(async (tx) => {
    await tx.query('UPDATE parsed_articles SET parsed_at = $1', [now]);
    await tx.query('UPDATE articles SET stored_at = $1', [now]);
    return tx.query<{ title: string; project: string }>('SELECT title, project FROM articles ORDER BY title, project');
  });
  const n = rows.length;
  return {
    summary: { records: n, inserted: n, replaced: 0, keptNewer: 0, skipped: 0, failed: 0, failures: [] },
    articles: rows.map((r) => `${r.title} (${r.project})`),
  };
}
