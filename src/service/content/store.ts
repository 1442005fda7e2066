/**
 * The article store: the newest revision of each (project, title) with its source, and the parsed
 * Article per revision and engine version. Same database as the accounts.
 */
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { Bus } from '../pubsub.js';
import { safeJson } from '../safe-json.js';
import type { Db } from '../storage/db.js';

/** Envelope metadata as stored: the envelope without `article_body`. */
export const StoredMetaSchema = z.record(z.string(), z.unknown());
export type StoredMeta = z.infer<typeof StoredMetaSchema>;

export interface ArticleSource {
  project: string;
  /** Normalised title, with spaces. */
  title: string;
  revision: number;
  pageId?: number | undefined;
  language?: string | undefined;
  html?: string | undefined;
  wikitext?: string | undefined;
  meta: StoredMeta;
  /** Where it came from: "import" or "upstream". */
  origin: 'import' | 'upstream';
}

/**
 * A stored article's row without its source, as every reader of the articles table gets it
 * (snapshots/source.ts adds the cached Article). bigint columns come back as strings from `pg`
 * and as numbers or bigints from PGlite: read as text.
 */
export const StoredRowSchema = z.object({
  project: z.string(),
  title: z.string(),
  revision: z.coerce.number().int(),
  language: z.string().nullable(),
});
export type StoredRow = z.infer<typeof StoredRowSchema>;

export const SourceRowSchema = StoredRowSchema.extend({
  page_id: z.coerce.number().int().nullable(),
  html: z.string().nullable(),
  wikitext: z.string().nullable(),
  meta: z.preprocess((v) => (typeof v === 'string' ? JSON.parse(v) : v), StoredMetaSchema),
});
export type SourceRow = z.infer<typeof SourceRowSchema>;

export type UpsertResult = 'inserted' | 'replaced' | 'kept-newer';

/** Told the project and title of an article whose stored rows changed. */
export type ArticleWriteListener = (project: string, title: string) => void;

/**
 * Listeners per database handle, shared by every ArticleStore on that handle: the importer
 * behind the admin socket and the content service each make their own store, and a write by one
 * must reach the caches in front of the other at once. A handle is a process's connection, so
 * this is "a write in this process"; writes by other processes arrive through the bus attached
 * by `shareArticleWrites` (and, should a push be lost, the readers bound how long they trust
 * what they cached).
 */
const writeListeners = new WeakMap<Db, Set<ArticleWriteListener>>();
const writeBuses = new WeakMap<Db, Bus>();

function notifyListeners(db: Db, project: string, title: string): void {
  for (const listener of writeListeners.get(db) ?? []) listener(project, title);
}

const WrittenSchema = z.tuple([z.string(), z.string()]);

/**
 * Publishes this handle's article writes on `bus`, and calls this handle's listeners for the
 * writes other processes publish. One bus per handle (a second call, from another app on the
 * same handle, is a no-op: its listeners already hear every write on the handle). Returns the
 * detach function.
 */
export function shareArticleWrites(db: Db, bus: Bus): () => void {
  if (writeBuses.has(db)) return () => {};
  writeBuses.set(db, bus);
  const unsubscribe = bus.subscribe('article', (payload) => {
    // undefined: pushes were lost while the bus reconnected; the readers' lookup age bounds that.
    if (payload === undefined) return;
    const written = WrittenSchema.safeParse(safeJson(payload));
    if (written.success) notifyListeners(db, written.data[0], written.data[1]);
  });
  return () => {
    unsubscribe();
    if (writeBuses.get(db) === bus) writeBuses.delete(db);
  };
}

export class ArticleStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * Calls `listener` after every committed write of an article through any ArticleStore on this
   * database handle. Returns the unsubscribe function.
   */
  onWrite(listener: ArticleWriteListener): () => void {
    let listeners = writeListeners.get(this.db);
    if (listeners === undefined) writeListeners.set(this.db, (listeners = new Set()));
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }

  #written(project: string, title: string): void {
    notifyListeners(this.db, project, title);
    // Lost, the other processes see the write when their lookup of the title ages out.
    writeBuses.get(this.db)?.publish('article', JSON.stringify([project, title])).catch(() => {});
  }

  /**
   * Stores `source` unless the store already has this or a newer revision ('kept-newer'); a
   * replaced revision's parsed Articles are dropped with it. `parsed`, when given, is cached alongside.
   */
  async upsert(source: ArticleSource, parsed?: { engineVersion: string; json: string }): Promise<UpsertResult> {
    const now = this.clock.now().toISOString();
    const result = await this.db.transaction(async (tx): Promise<UpsertResult> => {
      // One statement decides, so concurrent writers of one article (an import running beside an
      // upstream fetch) cannot replace a newer revision with an older one.
      const written = z.array(z.object({ inserted: z.boolean() })).parse(
        await tx.query(
          `INSERT INTO articles (project, title, revision, page_id, language, html, wikitext, meta, origin, stored_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           ON CONFLICT (project, title) DO UPDATE SET revision = $3, page_id = $4, language = $5, html = $6,
             wikitext = $7, meta = $8, origin = $9, stored_at = $10
           WHERE articles.revision < EXCLUDED.revision
           RETURNING (xmax = 0) AS inserted`,
          [
            source.project,
            source.title,
            source.revision,
            source.pageId ?? null,
            source.language ?? null,
            source.html ?? null,
            source.wikitext ?? null,
            JSON.stringify(source.meta),
            source.origin,
            now,
          ],
        ),
      );
      const row = written[0];
      if (row === undefined) return 'kept-newer';
      await tx.query('DELETE FROM parsed_articles WHERE project = $1 AND title = $2 AND revision <> $3', [source.project, source.title, source.revision]);
      if (parsed !== undefined) {
        await tx.query(
          `INSERT INTO parsed_articles (project, title, revision, engine_version, article, parsed_at) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (project, title, revision, engine_version) DO UPDATE SET article = $5, parsed_at = $6`,
          [source.project, source.title, source.revision, parsed.engineVersion, parsed.json, now],
        );
      }
      return row.inserted ? 'inserted' : 'replaced';
    });
    // After the commit: a reader told earlier could read the old row again and keep it.
    if (result !== 'kept-newer') this.#written(source.project, source.title);
    return result;
  }

  /** The stored rows (without sources) whose title is one of `titles`, optionally of one project. */
  async find(titles: readonly string[], project?: string): Promise<StoredRow[]> {
    const rows =
      project === undefined
        ? await this.db.query('SELECT project, title, revision::text AS revision, language FROM articles WHERE title = ANY($1) ORDER BY project', [titles])
        : await this.db.query('SELECT project, title, revision::text AS revision, language FROM articles WHERE title = ANY($1) AND project = $2', [titles, project]);
    return z.array(StoredRowSchema).parse(rows);
  }

  /** Whether any article of `project` is stored: one probe of the (project, title) key. */
  async hasProject(project: string): Promise<boolean> {
    const rows = await this.db.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM articles WHERE project = $1) AS found', [project]);
    return rows[0]?.found === true;
  }

  async source(project: string, title: string): Promise<SourceRow | undefined> {
    const rows = await this.db.query(
      `SELECT project, title, revision::text AS revision, language, page_id::text AS page_id, html, wikitext, meta
       FROM articles WHERE project = $1 AND title = $2`,
      [project, title],
    );
    return z.array(SourceRowSchema).parse(rows)[0];
  }

  /** The cached Article JSON text for this revision and engine version. */
  async parsed(project: string, title: string, revision: number, engineVersion: string): Promise<string | undefined> {
    const rows = await this.db.query<{ article: string }>(
      'SELECT article FROM parsed_articles WHERE project = $1 AND title = $2 AND revision = $3 AND engine_version = $4',
      [project, title, revision, engineVersion],
    );
    return rows[0]?.article;
  }

  async saveParsed(project: string, title: string, revision: number, engineVersion: string, json: string): Promise<void> {
    await this.db.query(
      `INSERT INTO parsed_articles (project, title, revision, engine_version, article, parsed_at)
       SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM articles WHERE project = $1 AND title = $2 AND revision = $3)
       ON CONFLICT (project, title, revision, engine_version) DO NOTHING`,
      [project, title, revision, engineVersion, json, this.clock.now().toISOString()],
    );
    // No write notice: the `articles` rows are unchanged, and they are all the lookup and the
    // catalog keep. Each first read after an engine change would otherwise drop both everywhere.
  }

  async count(): Promise<number> {
    const rows = await this.db.query<{ n: string | number }>('SELECT count(*)::text AS n FROM articles');
    return Number(rows[0]?.n ?? 0);
  }
}
