import pg from 'pg';
import type { Db, Queryable } from './db.js';

export interface PostgresOptions {
  connectionString: string;
  /** Schema to put first on the search path: lets test runs share one server without colliding. */
  schema?: string;
  maxConnections?: number;
}

/** A PostgreSQL server through a `pg` connection pool; safe to share between processes. */
export async function openPostgres(options: PostgresOptions): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    ...(options.schema === undefined ? {} : { options: `-c search_path=${quoteIdent(options.schema)}` }),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const client = await pool.connect(); // fail fast on a bad URL rather than at the first request
  client.release();
  const wrap = (q: pg.Pool | pg.PoolClient): Queryable => ({
    query: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await q.query(sql, [...params])).rows as T[],
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const conn = await pool.connect();
      try {
        await conn.query('BEGIN');
        const result = await fn(wrap(conn));
        await conn.query('COMMIT');
        return result;
      } catch (error) {
        await conn.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        conn.release();
      }
    },
    close: () => pool.end(),
  };
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
