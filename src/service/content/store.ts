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

/** A stored row as the content service looks it up: with how old it is (content/freshness.ts). */
const FoundRowSchema = StoredRowSchema.extend({
  /** Epoch milliseconds when the wiki last confirmed this revision (or it was stored). */
  checked_ms: z.coerce.number(),
  /** The revision's own date (`date_modified`), as delivered. */
  date_modified: z.string().nullable(),
}).transform(({ checked_ms, date_modified, ...row }) => ({ ...row, checkedAt: checked_ms, modified: date_modified ?? undefined }));
export type FoundRow = z.infer<typeof FoundRowSchema>;

export const SourceRowSchema = StoredRowSchema.extend({
  page_id: z.coerce.number().int().nullable(),
  html: z.string().nullable(),
  wikitext: z.string().nullable(),
  meta: z.preprocess((v) => (typeof v === 'string' ? JSON.parse(v) : v), StoredMetaSchema),
  /** The categories and templates read from the HTML (ContentService.pageLinks), as saved: JSON text, or null when not read yet. */
  page_links: z.string().nullable().optional(),
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
             wikitext = $7, meta = $8, origin = $9, stored_at = $10, checked_at = NULL, page_links = NULL
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

  /** The stored rows (without sources) whose title is one of `titles`, optionally of one project, with their age. */
  async find(titles: readonly string[], project?: string): Promise<FoundRow[]> {
    const columns = `project, title, revision::text AS revision, language, meta->>'date_modified' AS date_modified,
      floor(extract(epoch FROM coalesce(checked_at, stored_at)) * 1000)::bigint::text AS checked_ms`;
    const rows =
      project === undefined
        ? await this.db.query(`SELECT ${columns} FROM articles WHERE title = ANY($1) ORDER BY project`, [titles])
        : await this.db.query(`SELECT ${columns} FROM articles WHERE title = ANY($1) AND project = $2`, [titles, project]);
    return z.array(FoundRowSchema).parse(rows);
  }

  /**
   * Takes the revalidation lease of an article until `leaseUntil`, if nobody holds it and the
   * article still needs it: its stored revision is `revision` and was last confirmed before
   * `staleBefore` (by age), or is older than `belowRevision` (a change the wiki announced). One
   * statement decides, so of all the processes asking at once exactly one gets it. Returns the
   * stored revision when taken.
   */
  async claimRevalidation(
    project: string,
    title: string,
    claim: { now: Date; leaseUntil: Date } & ({ revision: number; staleBefore: Date } | { belowRevision: number }),
  ): Promise<number | undefined> {
    const need =
      'belowRevision' in claim
        ? { sql: 'revision < $5', value: claim.belowRevision }
        : { sql: 'revision = $5 AND coalesce(checked_at, stored_at) <= $6', value: claim.revision };
    const params: unknown[] = [project, title, claim.now.toISOString(), claim.leaseUntil.toISOString(), need.value];
    if ('staleBefore' in claim) params.push(claim.staleBefore.toISOString());
    const rows = await this.db.query<{ revision: string | number }>(
      `UPDATE articles SET revalidating_until = $4
       WHERE project = $1 AND title = $2 AND (revalidating_until IS NULL OR revalidating_until <= $3) AND ${need.sql}
       RETURNING revision::text AS revision`,
      params,
    );
    return rows[0] === undefined ? undefined : Number(rows[0].revision);
  }

  /**
   * Ends a revalidation: `confirmed`, the wiki's latest revision is the stored one as of `now`
   * (a newer one stored meanwhile counts from its own storing); otherwise it failed, and the lease
   * is kept until `retryAt` so that nobody asks the wiki again sooner.
   */
  async finishRevalidation(project: string, title: string, outcome: { now: Date; confirmed: number } | { retryAt: Date }): Promise<void> {
    if ('confirmed' in outcome) {
      await this.db.query(
        `UPDATE articles SET revalidating_until = NULL, checked_at = CASE WHEN revision = $4 THEN $3::timestamptz ELSE checked_at END
         WHERE project = $1 AND title = $2`,
        [project, title, outcome.now.toISOString(), outcome.confirmed],
      );
    } else {
      await this.db.query('UPDATE articles SET revalidating_until = $3 WHERE project = $1 AND title = $2', [project, title, outcome.retryAt.toISOString()]);
    }
  }

  /** Whether any article of `project` is stored: one probe of the (project, title) key. */
  async hasProject(project: string): Promise<boolean> {
    const rows = await this.db.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM articles WHERE project = $1) AS found', [project]);
    return rows[0]?.found === true;
  }

  async source(project: string, title: string): Promise<SourceRow | undefined> {
    const rows = await this.db.query(
      `SELECT project, title, revision::text AS revision, language, page_id::text AS page_id, html, wikitext, meta, page_links
       FROM articles WHERE project = $1 AND title = $2`,
      [project, title],
    );
    return z.array(SourceRowSchema).parse(rows)[0];
  }

  /**
   * Saves what was read from a stored revision's HTML (its categories and templates, as JSON text);
   * nothing when the revision was replaced meanwhile. No write notice: what a title lookup keeps is
   * unchanged.
   */
  async savePageLinks(project: string, title: string, revision: number, json: string): Promise<void> {
    await this.db.query('UPDATE articles SET page_links = $4 WHERE project = $1 AND title = $2 AND revision = $3', [project, title, revision, json]);
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
