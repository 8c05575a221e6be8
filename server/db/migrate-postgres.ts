import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { AppError } from '../errors/app-error';
import { redact } from '../redact-url';
import type { MigrationFile } from './migration-files';
import {
  pendingMigrations,
  runStepAsync,
  wrapConnectionError,
  type AppliedRow,
} from './migration-history';

/** The key `prisma migrate` itself locks on PostgreSQL, so it and we exclude each other. */
const PRISMA_ADVISORY_LOCK_KEY = 72707369;

/** Prisma's own definition of its history table on PostgreSQL. */
const POSTGRES_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export async function migratePostgres(
  url: string,
  migrations: MigrationFile[],
  lockTimeoutMs: number,
): Promise<{ applied: string[] }> {
  const client = new pg.Client({ connectionString: url });
  // A dropped connection also rejects the pending query; without a listener it would crash.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw wrapConnectionError(error, `PostgreSQL database ${redact(url)}`);
  }
  try {
    await client.query('BEGIN');
    try {
      await client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`);
      // Transaction-scoped: released by COMMIT/ROLLBACK, or when the connection dies.
      try {
        await client.query('SELECT pg_advisory_xact_lock($1)', [PRISMA_ADVISORY_LOCK_KEY]);
      } catch (error) {
        throw new AppError(
          'INTERNAL',
          `Another process has been migrating ${redact(url)} for more than ${lockTimeoutMs} ms (advisory lock ${PRISMA_ADVISORY_LOCK_KEY}); try again when it is done`,
          { cause: error },
        );
      }
      await client.query(POSTGRES_TABLE);
      const { rows } = await client.query<AppliedRow>(
        'SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations',
      );
      const pending = pendingMigrations(migrations, rows, redact(url));
      for (const migration of pending) {
        const startedAt = new Date();
        await runStepAsync(migration, () => client.query(migration.script));
        await client.query(
          `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, NULL, NULL, $4, 1)`,
          [randomUUID(), migration.checksum, migration.name, startedAt],
        );
      }
      await client.query('COMMIT');
      return { applied: pending.map((migration) => migration.name) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } catch (error) {
    throw wrapConnectionError(error, `PostgreSQL database ${redact(url)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
