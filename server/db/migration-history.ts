import { AppError } from '../errors/app-error';
import { checksumMatches, type MigrationFile } from './migration-files';

/** A row of Prisma's `_prisma_migrations` table, as far as the runner reads it. */
export interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
}

/** Checks the recorded history against the files; returns what is left to apply, in order. */
export function pendingMigrations(
  migrations: MigrationFile[],
  rows: AppliedRow[],
  where: string,
): MigrationFile[] {
  const failed = rows.filter((row) => row.finished_at === null && row.rolled_back_at === null);
  if (failed.length > 0) {
    throw new AppError(
      'INTERNAL',
      `${where}: migration ${failed.map((row) => row.migration_name).join(', ')} failed earlier and was never resolved; fix the database by hand, then mark it with \`prisma migrate resolve\``,
    );
  }
  const applied = new Map(
    rows.filter((row) => row.rolled_back_at === null).map((row) => [row.migration_name, row]),
  );
  const known = new Set(migrations.map((migration) => migration.name));
  const unknown = [...applied.keys()].filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new AppError(
      'INTERNAL',
      `${where} has migrations this version of Shadowbox does not know (${unknown.join(', ')}): is an older version running against a newer database?`,
    );
  }
  for (const migration of migrations) {
    const row = applied.get(migration.name);
    if (row !== undefined && !checksumMatches(migration.script, row.checksum)) {
      throw new AppError(
        'INTERNAL',
        `${where}: migration ${migration.name} was modified after it was applied (checksum ${row.checksum} in the database, ${migration.checksum} on disk); never edit an applied migration, create a new one`,
      );
    }
  }
  return migrations.filter((migration) => !applied.has(migration.name));
}

export function runStep(migration: MigrationFile, step: () => void): void {
  try {
    step();
  } catch (error) {
    throw migrationError(migration, error);
  }
}

export async function runStepAsync(
  migration: MigrationFile,
  step: () => Promise<unknown>,
): Promise<void> {
  try {
    await step();
  } catch (error) {
    throw migrationError(migration, error);
  }
}

export function migrationError(migration: MigrationFile, cause: unknown): AppError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new AppError(
    'INTERNAL',
    `Migration ${migration.name} failed: ${reason}. Nothing was applied (the whole run was rolled back).`,
    { cause, details: { migration: migration.name } },
  );
}

export function wrapConnectionError(error: unknown, where: string): AppError {
  if (error instanceof AppError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new AppError('INTERNAL', `Cannot migrate the ${where}: ${reason}`, { cause: error });
}
