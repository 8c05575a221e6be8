import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pendingMigrations } from './migrate';
import { checksumMatches, checksumOf, schemaFileOf, type MigrationFile } from './migration-files';

const file = (name: string, script = `-- ${name}\n`): MigrationFile => ({
  name,
  script,
  checksum: checksumOf(script),
});
const row = (m: MigrationFile, finished = true) => ({
  migration_name: m.name,
  checksum: m.checksum,
  finished_at: finished ? '2026-11-30T00:00:00.000+00:00' : null,
  rolled_back_at: null,
});

describe('checksums', () => {
  it("are the hex SHA-256 of the script, as Prisma's engine records them", () => {
    expect(checksumOf('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('still match after a CRLF checkout', () => {
    expect(checksumMatches('a\r\nb\r\n', checksumOf('a\nb\n'))).toBe(true);
    expect(checksumMatches('a\nb\n', checksumOf('a\r\nb\r\n'))).toBe(true);
    expect(checksumMatches('a\nc\n', checksumOf('a\nb\n'))).toBe(false);
  });
});

describe('pendingMigrations', () => {
  const [a, b, c] = [file('1_a'), file('2_b'), file('3_c')];

  it('returns the unapplied migrations in order', () => {
    expect(pendingMigrations([a, b, c], [], 'db')).toEqual([a, b, c]);
    expect(pendingMigrations([a, b, c], [row(a), row(b)], 'db')).toEqual([c]);
    expect(pendingMigrations([a, b], [row(a), row(b)], 'db')).toEqual([]);
  });

  it('re-applies a migration that was rolled back', () => {
    expect(pendingMigrations([a], [{ ...row(a), rolled_back_at: 'x' }], 'db')).toEqual([a]);
  });

  it('refuses a failed, unresolved migration', () => {
    expect(() => pendingMigrations([a, b], [row(a), row(b, false)], 'db')).toThrow(
      /migration 2_b failed earlier/,
    );
  });

  it('refuses an edited migration and a database that is ahead', () => {
    expect(() => pendingMigrations([file('1_a', 'changed')], [row(a)], 'db')).toThrow(
      /1_a was modified after it was applied/,
    );
    expect(() => pendingMigrations([a], [row(a), row(b)], 'db')).toThrow(/does not know \(2_b\)/);
  });
});

it('keeps prisma/postgres/schema.prisma derived from prisma/schema.prisma (npm ci regenerates it)', () => {
  const sqlite = readFileSync(schemaFileOf('sqlite'), 'utf8');
  const postgres = readFileSync(schemaFileOf('postgresql'), 'utf8');
  const back = postgres
    .replace(/^\/\/ GENERATED.*\n/, '')
    .replace('provider = "postgresql"', 'provider = "sqlite"')
    .replace('"../../server/db/generated/postgres"', '"../server/db/generated/sqlite"');
  expect(back).toBe(sqlite);
});
