/**
 * What a snapshot is built from: the stored articles of one project and namespace, read in pages
 * in byte order of their titles (`COLLATE "C"`: the same order on every server and locale, and
 * what a resumed build continues after): for a structured snapshot each with its cached Article
 * JSON for this engine version when there is one, for a regular one as stored (body and metadata).
 */
import { z } from 'zod';
import { SourceRowSchema, StoredRowSchema, type SourceRow } from '../content/store.js';
import type { Db } from '../storage/db.js';

/**
 * The namespace an article is stored in: its envelope's `namespace.identifier`, else 0 (articles
 * without metadata, and every XML-dump page import keeps, are in the main namespace).
 */
const NAMESPACE_SQL = `CASE WHEN jsonb_typeof(meta->'namespace'->'identifier') = 'number' THEN (meta->'namespace'->>'identifier')::numeric::int ELSE 0 END`;

/** The articles of a page: one project and namespace ($1, $2), after the title $3 in byte order (null: from the first). */
const ARTICLE_WHERE = `a.project = $1 AND ${NAMESPACE_SQL.replaceAll('meta', 'a.meta')} = $2 AND ($3::text IS NULL OR a.title COLLATE "C" > $3::text COLLATE "C")`;

export interface SnapshotTarget {
  project: string;
  namespace: number;
  /** The language most of its articles are stored with (null: none said). */
  language: string | null;
  articles: number;
}

const TargetRows = z.array(
  z.object({ project: z.string(), namespace: z.coerce.number().int(), language: z.string().nullable(), articles: z.coerce.number().int() }),
);

/** Every (project, namespace) with stored articles, or only those of `projects`. */
export async function snapshotTargets(db: Db, projects?: readonly string[]): Promise<SnapshotTarget[]> {
  const filter = projects === undefined ? '' : 'WHERE project = ANY($1)';
  const rows = await db.query(
    `SELECT project, ${NAMESPACE_SQL} AS namespace, min(language) AS language, count(*)::text AS articles
     FROM articles ${filter} GROUP BY 1, 2 ORDER BY 1, 2`,
    projects === undefined ? [] : [projects],
  );
  return TargetRows.parse(rows);
}

/** The store's row, with the Article JSON cached for this engine version (null: none yet). */
const PageRows = z.array(StoredRowSchema.extend({ article: z.string().nullable() }));
export type PageRow = z.infer<typeof PageRows>[number];

/** Up to `limit` articles after the title `after` (null: from the first), with the Article JSON when it is cached. */
export async function articlePage(db: Db, target: { project: string; namespace: number }, after: string | null, limit: number, engineVersion: string): Promise<PageRow[]> {
  const rows = await db.query(
    `SELECT a.project, a.title, a.revision::text AS revision, a.language, p.article
     FROM articles a
     LEFT JOIN parsed_articles p ON p.project = a.project AND p.title = a.title AND p.revision = a.revision AND p.engine_version = $4
     WHERE ${ARTICLE_WHERE}
     ORDER BY a.title COLLATE "C"
     LIMIT $5`,
    [target.project, target.namespace, after, engineVersion, limit],
  );
  return PageRows.parse(rows);
}

/** Up to `limit` stored articles after the title `after` (null: from the first), as the store keeps them (body and metadata): a regular snapshot's lines. */
export async function envelopePage(db: Db, target: { project: string; namespace: number }, after: string | null, limit: number): Promise<SourceRow[]> {
  const rows = await db.query(
    `SELECT a.project, a.title, a.revision::text AS revision, a.language, a.page_id::text AS page_id, a.html, a.wikitext, a.meta, a.page_links
     FROM articles a
     WHERE ${ARTICLE_WHERE}
     ORDER BY a.title COLLATE "C"
     LIMIT $4`,
    [target.project, target.namespace, after, limit],
  );
  return z.array(SourceRowSchema).parse(rows);
}
