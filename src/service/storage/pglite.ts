import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable } from './db.js';

/**
 * Embedded PostgreSQL in a data directory. PGlite is single-process and single-connection: it
 * serialises queries itself, and the data directory must never be opened by two processes at
 * once (see lock.ts, which callers take first).
 */
export async function openPglite(dataDir: string | undefined): Promise<Db> {
  const pg = dataDir === undefined ? await PGlite.create() : await PGlite.create(dataDir);
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    query: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await q.query<T>(sql, [...params])).rows,
  });
  return {
    kind: 'pglite',
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  };
}
