/**
 * The one storage interface every service module talks to. Two implementations: embedded PGlite
 * (default, single process) and a PostgreSQL server via `pg`. Both speak the same SQL dialect, so
 * repositories are written once. Parameters are positional (`$1`), rows come back as plain objects.
 */
export interface Queryable {
  query<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  /** Which backend this is, for messages and diagnostics only; no code branches on it. */
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
