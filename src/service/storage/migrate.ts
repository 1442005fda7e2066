import type { Db } from './db.js';
import { MIGRATIONS, type Migration } from './migrations.js';

/** Arbitrary constant: the advisory lock that serialises concurrent starts on one database. */
const MIGRATION_LOCK = 7_031_942;

/**
 * Applies the migrations not yet recorded, in order, in one transaction. Two processes starting
 * at once on the same server wait for each other on an advisory lock instead of racing.
 * Returns the ids applied by this call.
 */
export async function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL)`,
    );
    const rows = await tx.query<{ id: string }>('SELECT id FROM schema_migrations');
    const done = new Set(rows.map((r) => r.id));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id, applied_at) VALUES ($1, $2)', [
        migration.id,
        new Date().toISOString(),
      ]);
      applied.push(migration.id);
    }
    return applied;
  });
}
