import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateDatabase } from './migrate';
import { migrationsDirOf, readMigrations, schemaFileOf } from './migration-files';
import { noFilters, withSchemaEngine } from './schema-engine';
import {
  backends,
  queryRows,
  runStatement,
  tableNamesSql,
  type ScratchDatabase,
} from '../test-support/scratch-databases';

const here = import.meta.dirname;

/** Starts one migrator in its own process; resolves with what it printed. */
function migrateInChild(
  database: ScratchDatabase['config'],
): Promise<{ applied?: string[]; error?: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'fixtures', 'run-migrate.ts'), JSON.stringify(database)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(out) as { applied?: string[]; error?: string });
      } catch (error) {
        reject(new Error(`migrator printed ${JSON.stringify(out)}`, { cause: error }));
      }
    });
  });
}

/** Takes the lock a migrator takes (SQLite write lock; Prisma's advisory lock on PostgreSQL). */
async function holdMigrationLock(
  database: ScratchDatabase['config'],
): Promise<() => Promise<void>> {
  if (database.provider === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.dirname(database.file), { recursive: true });
    const db = new Database(database.file);
    db.pragma('journal_mode = WAL');
    db.exec('BEGIN IMMEDIATE');
    return () => {
      db.exec('ROLLBACK');
      db.close();
      return Promise.resolve();
    };
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query('SELECT pg_advisory_lock(72707369)');
  return async () => {
    await client.query('SELECT pg_advisory_unlock(72707369)');
    await client.end();
  };
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(`migrations on ${backend.name}`, () => {
    let scratch: ScratchDatabase;
    beforeEach(async () => {
      scratch = await backend.create();
    });
    afterEach(async () => {
      await scratch.drop();
    });

    it('applies every migration to an empty database, then is a no-op', async () => {
      const provider = scratch.config.provider;
      const names = (await readMigrations(migrationsDirOf(provider), provider)).map((m) => m.name);
      expect(names.length).toBeGreaterThan(0);

      expect(await migrateDatabase(scratch.config)).toEqual({ applied: names });
      const tables = (await queryRows(scratch.config, tableNamesSql(scratch.config))).map(
        (row) => row.name,
      );
      expect(tables).toEqual(
        expect.arrayContaining(['Task', 'Event', 'Job', '_prisma_migrations']),
      );

      expect(await migrateDatabase(scratch.config)).toEqual({ applied: [] });
      const rows = await queryRows(
        scratch.config,
        'SELECT migration_name, applied_steps_count, finished_at FROM _prisma_migrations',
      );
      expect(rows.map((row) => row.migration_name)).toEqual(names);
      expect(
        rows.every((row) => Number(row.applied_steps_count) === 1 && row.finished_at !== null),
      ).toBe(true);
    });

    it("leaves a database Prisma's own engine accepts, and that matches the schema", async () => {
      const provider = scratch.config.provider;
      await migrateDatabase(scratch.config);
      const dir = migrationsDirOf(provider);
      const migrations = await readMigrations(dir, provider);
      await withSchemaEngine(scratch.config, schemaFileOf(provider), async (engine, schema) => {
        // What `prisma migrate deploy` runs: nothing left to apply, no checksum complaint.
        const deployed = await engine.applyMigrations({
          migrationsList: {
            baseDir: dir,
            lockfile: { path: 'migration_lock.toml', content: `provider = "${provider}"\n` },
            shadowDbInitScript: '',
            migrationDirectories: migrations.map((m) => ({
              path: m.name,
              migrationFile: { path: 'migration.sql', content: { tag: 'ok', value: m.script } },
            })),
          },
          filters: noFilters,
        });
        expect(deployed.appliedMigrationNames).toEqual([]);
        // The migrations build exactly what schema.prisma describes (else: db:migrate:create).
        const drift = await engine.diff({
          from: { tag: 'schemaDatasource', ...schema, configDir: process.cwd() },
          to: { tag: 'schemaDatamodel', ...schema },
          script: true,
          exitCode: true,
          filters: noFilters,
        });
        expect(drift.stdout).toBe('-- This is an empty migration.\n');
        expect(drift.exitCode).toBe(0);
      });
    });

    it('lets four processes start at once: one applies, the others wait and find nothing', async () => {
      const provider = scratch.config.provider;
      const names = (await readMigrations(migrationsDirOf(provider), provider)).map((m) => m.name);
      const results = await Promise.all([1, 2, 3, 4].map(() => migrateInChild(scratch.config)));
      expect(results.filter((r) => r.error !== undefined)).toEqual([]);
      expect(results.map((r) => r.applied).sort()).toEqual([[], [], [], names]);
      const rows = await queryRows(scratch.config, 'SELECT migration_name FROM _prisma_migrations');
      expect(rows).toHaveLength(names.length);
    });

    it('waits while another migrator holds the lock, then finishes the job', async () => {
      const release = await holdMigrationLock(scratch.config);
      const child = migrateInChild(scratch.config);
      let settled = false;
      void child.finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(settled).toBe(false);
      await release();
      const result = await child;
      expect(result.error).toBeUndefined();
      expect(result.applied?.length).toBeGreaterThan(0);
    });

    it('gives up with a clear error when the lock is held too long', async () => {
      const release = await holdMigrationLock(scratch.config);
      try {
        await expect(migrateDatabase(scratch.config, { lockTimeoutMs: 300 })).rejects.toThrow(
          /^Another process has (held the write lock of|been migrating) .* for more than 300 ms/,
        );
      } finally {
        await release();
      }
      expect((await migrateDatabase(scratch.config)).applied.length).toBeGreaterThan(0);
    });

    describe('with a migration set of its own', () => {
      let dir: string;
      beforeEach(async () => {
        dir = await mkdtemp(path.join(os.tmpdir(), 'shadowbox-migrations-'));
        await cp(migrationsDirOf(scratch.config.provider), dir, { recursive: true });
      });
      afterEach(async () => {
        await rm(dir, { recursive: true, force: true });
      });

      async function addMigration(name: string, sql: string): Promise<void> {
        const { mkdir } = await import('node:fs/promises');
        await mkdir(path.join(dir, name));
        await writeFile(path.join(dir, name, 'migration.sql'), sql);
      }

      it('gives tasks made before titles a title from their source', async () => {
        const titles = '20261206065357_task_title_problem';
        const held = path.join(os.tmpdir(), `${path.basename(dir)}-${titles}`);
        await cp(path.join(dir, titles), held, { recursive: true });
        await rm(path.join(dir, titles), { recursive: true });
        await migrateDatabase(scratch.config, { migrationsDir: dir });
        const now = scratch.config.provider === 'sqlite' ? '0' : 'now()';
        await runStatement(
          scratch.config,
          `INSERT INTO "Task" ("id", "sourceKind", "sourceUrl", "sourceRef", "archiveName", "testCommand", "updatedAt") VALUES
            ('a', 'git', 'https://github.com/google/uuid.git', 'v1.6.0', NULL, '[]', ${now}),
            ('b', 'git', 'https://git.example.com/team/calc/', NULL, NULL, '[]', ${now}),
            ('c', 'archive', NULL, NULL, 'calc.tar.gz', '[]', ${now})`,
        );
        await cp(held, path.join(dir, titles), { recursive: true });
        await rm(held, { recursive: true, force: true });
        await migrateDatabase(scratch.config, { migrationsDir: dir });
        const rows = await queryRows(
          scratch.config,
          'SELECT "id", "title", "problem" FROM "Task" ORDER BY "id"',
        );
        expect(rows).toEqual([
          { id: 'a', title: 'uuid @ v1.6.0', problem: '' },
          { id: 'b', title: 'calc', problem: '' },
          { id: 'c', title: 'calc.tar.gz', problem: '' },
        ]);
      });

      it('rolls a failing run back completely and names the migration', async () => {
        await addMigration(
          '29990101000000_good',
          'CREATE TABLE "Extra" ("id" INTEGER PRIMARY KEY);\n',
        );
        await addMigration('29990101000001_bad', 'CREATE TABLE "Broken" (;\n');
        await expect(migrateDatabase(scratch.config, { migrationsDir: dir })).rejects.toThrow(
          /Migration 29990101000001_bad failed: .*Nothing was applied/,
        );
        const tables = (await queryRows(scratch.config, tableNamesSql(scratch.config))).map(
          (row) => row.name,
        );
        expect(tables).not.toContain('Task');
        expect(tables).not.toContain('Extra');

        await rm(path.join(dir, '29990101000001_bad'), { recursive: true });
        const { applied } = await migrateDatabase(scratch.config, { migrationsDir: dir });
        expect(applied.at(-1)).toBe('29990101000000_good');
      });

      it.runIf(backend.name === 'SQLite')(
        "survives Prisma's SQLite table rebuild without cascading deletes",
        async () => {
          await addMigration(
            '29990101000000_parent_child',
            `CREATE TABLE "P" ("id" TEXT NOT NULL PRIMARY KEY);
CREATE TABLE "C" ("id" TEXT NOT NULL PRIMARY KEY, "pId" TEXT NOT NULL,
  CONSTRAINT "C_pId_fkey" FOREIGN KEY ("pId") REFERENCES "P" ("id") ON DELETE CASCADE ON UPDATE CASCADE);
INSERT INTO "P" VALUES ('p1');
INSERT INTO "C" VALUES ('c1', 'p1');
`,
          );
          await migrateDatabase(scratch.config, { migrationsDir: dir });
          // What \`prisma migrate\` generates when a column changes on SQLite.
          await addMigration(
            '29990101000001_rebuild_parent',
            `PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_P" ("id" TEXT NOT NULL PRIMARY KEY, "note" TEXT);
INSERT INTO "new_P" ("id") SELECT "id" FROM "P";
DROP TABLE "P";
ALTER TABLE "new_P" RENAME TO "P";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
`,
          );
          expect((await migrateDatabase(scratch.config, { migrationsDir: dir })).applied).toEqual([
            '29990101000001_rebuild_parent',
          ]);
          expect(await queryRows(scratch.config, 'SELECT id, pId FROM C')).toEqual([
            { id: 'c1', pId: 'p1' },
          ]);
        },
      );

      it('refuses a migration edited after it was applied', async () => {
        await addMigration(
          '29990101000000_extra',
          'CREATE TABLE "Extra" ("id" INTEGER PRIMARY KEY);\n',
        );
        await migrateDatabase(scratch.config, { migrationsDir: dir });
        await writeFile(
          path.join(dir, '29990101000000_extra', 'migration.sql'),
          'CREATE TABLE "Extra" ("id" INTEGER PRIMARY KEY, "x" TEXT);\n',
        );
        await expect(migrateDatabase(scratch.config, { migrationsDir: dir })).rejects.toThrow(
          /29990101000000_extra was modified after it was applied/,
        );
      });

      it('refuses a database that is ahead of the migration files', async () => {
        await addMigration(
          '29990101000000_extra',
          'CREATE TABLE "Extra" ("id" INTEGER PRIMARY KEY);\n',
        );
        await migrateDatabase(scratch.config, { migrationsDir: dir });
        await rm(path.join(dir, '29990101000000_extra'), { recursive: true });
        await expect(migrateDatabase(scratch.config, { migrationsDir: dir })).rejects.toThrow(
          /does not know \(29990101000000_extra\)/,
        );
      });

      it('refuses migrations locked to the other provider', async () => {
        const other = scratch.config.provider === 'sqlite' ? 'postgresql' : 'sqlite';
        await writeFile(path.join(dir, 'migration_lock.toml'), `provider = "${other}"\n`);
        await expect(migrateDatabase(scratch.config, { migrationsDir: dir })).rejects.toThrow(
          /must say provider = "(sqlite|postgresql)"/,
        );
      });
    });
  });
}

it('keeps the SQLite and PostgreSQL migration sets in step (same names)', async () => {
  const sqlite = await readMigrations(migrationsDirOf('sqlite'), 'sqlite');
  const postgres = await readMigrations(migrationsDirOf('postgresql'), 'postgresql');
  expect(postgres.map((m) => m.name)).toEqual(sqlite.map((m) => m.name));
});
