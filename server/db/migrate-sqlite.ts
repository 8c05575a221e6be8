import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { AppError } from '../errors/app-error';
import { makeDatabaseFilePrivate } from './private-file';
import type { MigrationFile } from './migration-files';
import {
  migrationError,
  pendingMigrations,
  runStep,
  wrapConnectionError,
  type AppliedRow,
} from './migration-history';

/** Prisma's own definition of its history table on SQLite. */
const SQLITE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

export function migrateSqlite(
  file: string,
  migrations: MigrationFile[],
  lockTimeoutMs: number,
): { applied: string[] } {
  mkdirSync(path.dirname(file), { recursive: true });
  makeDatabaseFilePrivate(file);
  const db = new Database(file, { timeout: lockTimeoutMs });
  try {
    db.pragma('journal_mode = WAL');
    // Prisma's SQLite table rebuilds (create new, copy, DROP old, rename) rely on foreign keys
    // being off: with them on, DROP TABLE would run the ON DELETE CASCADE actions. The pragma is
    // a no-op inside a transaction, so it is set here; foreign_key_check runs before COMMIT.
    db.pragma('foreign_keys = OFF');
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(SQLITE_TABLE);
      const rows = db
        .prepare(
          'SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations',
        )
        .all() as AppliedRow[];
      const pending = pendingMigrations(migrations, rows, file);
      const record = db.prepare(
        `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
         VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)`,
      );
      for (const migration of pending) {
        const startedAt = prismaTimestamp(new Date());
        runStep(migration, () => db.exec(migration.script));
        const violations = db.pragma('foreign_key_check') as unknown[];
        if (violations.length > 0) {
          throw migrationError(
            migration,
            new Error(`foreign key violations: ${JSON.stringify(violations.slice(0, 5))}`),
          );
        }
        record.run(
          randomUUID(),
          migration.checksum,
          prismaTimestamp(new Date()),
          migration.name,
          startedAt,
        );
      }
      db.exec('COMMIT');
      return { applied: pending.map((migration) => migration.name) };
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') {
      throw new AppError(
        'INTERNAL',
        `Another process has held the write lock of the SQLite database ${file} for more than ${lockTimeoutMs} ms; try again when it is done`,
        { cause: error },
      );
    }
    throw wrapConnectionError(error, `SQLite database ${file}`);
  } finally {
    db.close();
  }
}

/** How Prisma's engine writes DateTime values to SQLite: `2026-11-30T09:15:21.989+00:00`. */
function prismaTimestamp(date: Date): string {
  return date.toISOString().replace(/Z$/, '+00:00');
}
