/**
 * The sample articles shipped in `samples/articles.ndjson.gz` (see samples/NOTICE.md): a fresh
 * embedded store is seeded with them on the first start, so that a new user's first request is
 * answered with no network and no import step.
 */
import { packageFile } from '../../package-files.js';
import type { Clock } from '../clock.js';
import type { Db } from '../storage/db.js';
import { importInputs, type ImportSummary } from './importer.js';
import { createEngineClient } from '../engine-client.js';
import { ArticleStore } from './store.js';

export const SAMPLES_FILE = 'samples/articles.ndjson.gz';

export interface SeedResult {
  summary: ImportSummary;
  /** `Title (project)` of every sample, for the announcement. */
  articles: string[];
}

/**
 * Loads the samples when the store holds no article at all; undefined when it holds some (or the
 * package ships no samples). Parsed on the calling thread: four articles, about a second.
 */
export async function seedSamples(db: Db, clock: Clock): Promise<SeedResult | undefined> {
  const file = packageFile(SAMPLES_FILE);
  if (file === undefined) return undefined;
  // EXISTS, not count(*): the check runs on every start of the embedded server.
  const any = await db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM articles) AS any');
  if (any[0]?.any === true) return undefined;
  const store = new ArticleStore(db, clock);
  const engine = createEngineClient({ threads: 1 });
  try {
    const summary = await importInputs([file], { store, engine, concurrency: 1 });
    const rows = await db.query<{ title: string; project: string }>('SELECT title, project FROM articles ORDER BY title, project');
    return { summary, articles: rows.map((r) => `${r.title} (${r.project})`) };
  } finally {
    await engine.close();
  }
}
