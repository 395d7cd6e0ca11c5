/**
 * Applies pending migrations, each in its own transaction, and records them in schema_migrations.
 * A transaction-scoped advisory lock makes processes starting at once against one PostgreSQL take
 * turns, so each migration is applied exactly once (PGlite supports the same lock).
 */
import type { Database, Queryable } from './database.ts';
import { MIGRATIONS, type Migration } from './migrations.ts';

/** Arbitrary but fixed: the advisory lock key every Nemuri Monitor process uses for migrations. */
export const MIGRATION_LOCK_KEY = 4_711_020_832;

const MIGRATION_ID = /^\d{3}_[a-z0-9_]+$/;

export interface MigrateResult {
  /** Ids applied by this call, in order (empty when the schema was up to date). */
  applied: string[];
}

export async function migrate(database: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<MigrateResult> {
  checkMigrationList(migrations);
  const applied: string[] = [];
  // Most starts find every migration applied: one query says so, instead of a transaction with the
  // lock for each (seconds on a cold embedded database right after a crash). Those not seen here are
  // checked again under the lock below, as another process may be applying them.
  const seen = new Set(await appliedMigrations(database));
  for (const migration of migrations) {
    if (seen.has(migration.id)) continue;
    // A migration may rewrite a large table, and may wait for another process's migrations: no limit.
    const didApply = await database.transaction(
      async (tx) => {
        await tx.query('set local lock_timeout = 0');
        await lockAndPrepare(tx);
        const done = await tx.query('select 1 from schema_migrations where id = $1', [migration.id]);
        if (done.rows.length > 0) return false;
        try {
          await tx.exec(migration.sql);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new Error(`migration ${migration.id} failed: ${reason}`, { cause: error });
        }
        await tx.query('insert into schema_migrations (id) values ($1)', [migration.id]);
        return true;
      },
      { statementTimeoutMs: 0 },
    );
    if (didApply) applied.push(migration.id);
  }
  return { applied };
}

/** Ids of the migrations recorded as applied, in order. */
export async function appliedMigrations(database: Queryable): Promise<string[]> {
  const exists = await database.query<{ found: string | null }>(`select to_regclass('schema_migrations')::text as found`);
  if (!exists.rows[0]?.found) return [];
  const { rows } = await database.query<{ id: string }>('select id from schema_migrations order by id');
  return rows.map((row) => row.id);
}

async function lockAndPrepare(tx: Queryable): Promise<void> {
  await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
  await tx.exec(`
    create table if not exists schema_migrations (
      id text primary key,
      applied_at timestamptz not null default now()
    )
  `);
}

/** Catches mistakes in the list itself before anything touches the database. */
export function checkMigrationList(migrations: readonly Migration[]): void {
  let previous = '';
  for (const { id } of migrations) {
    if (!MIGRATION_ID.test(id)) throw new Error(`migration id "${id}" must look like 001_what_it_does`);
    if (id <= previous) throw new Error(`migration "${id}" must come after "${previous}": ids ascend and are unique`);
    previous = id;
  }
}
