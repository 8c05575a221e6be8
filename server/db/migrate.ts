import type { DatabaseConfig } from '../env';
import { migratePostgres } from './migrate-postgres';
import { migrateSqlite } from './migrate-sqlite';
import { migrationsDirOf, readMigrations } from './migration-files';

export { pendingMigrations } from './migration-history';

/**
 * Applies pending migrations at start-up, without Prisma's native engine: each pending
 * `migration.sql` runs in order inside ONE transaction that also records it in Prisma's own
 * `_prisma_migrations` table (same DDL, same SHA-256 checksums), so a later `prisma migrate deploy`
 * sees an up-to-date database. Why not the WebAssembly engine's `applyMigrations`: Prisma runs
 * each script outside any transaction, so a failure half-way leaves a half-applied script and a
 * "failed migration" row that blocks every later start; its migration lock is a PostgreSQL
 * advisory lock, with nothing equivalent on SQLite; and it costs a 5 MB wasm load per start.
 * Here a failure rolls everything back and names the migration, and a concurrent starter waits on
 * the lock (SQLite: BEGIN IMMEDIATE; PostgreSQL: the advisory lock Prisma's own engine takes),
 * then finds nothing left to do.
 */
export interface MigrateOptions {
  /** Defaults to the project's set for the provider (prisma/migrations, prisma/postgres/migrations). */
  migrationsDir?: string;
  /** How long to wait for another migrator before giving up, in ms (default 60 s). */
  lockTimeoutMs?: number;
}

export interface MigrateResult {
  applied: string[];
}

export async function migrateDatabase(
  database: DatabaseConfig,
  options: MigrateOptions = {},
): Promise<MigrateResult> {
  const migrations = await readMigrations(
    options.migrationsDir ?? migrationsDirOf(database.provider),
    database.provider,
  );
  const lockTimeoutMs = options.lockTimeoutMs ?? 60_000;
  return database.provider === 'sqlite'
    ? migrateSqlite(database.file, migrations, lockTimeoutMs)
    : migratePostgres(database.url, migrations, lockTimeoutMs);
}
