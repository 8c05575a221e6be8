// `npm run db:migrate:create -- NAME [--postgres-url URL]`: writes the SQL that takes the database
// from what the existing migrations build to what prisma/schema.prisma describes, as a new
// migration in BOTH sets (prisma/migrations for SQLite, prisma/postgres/migrations for PostgreSQL,
// same folder name). Each set is first applied to a scratch database (a temp SQLite file; a
// throw-away PostgreSQL database), which is then diffed against the schema by Prisma's schema
// engine (WebAssembly). Review the SQL before committing it: it may drop or rebuild tables.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { DatabaseConfig } from '../env';
import { migrateDatabase } from './migrate';
import { lockfileText, migrationsDirOf, schemaFileOf, type Provider } from './migration-files';
import { noFilters, withSchemaEngine } from './schema-engine';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'postgres-url': { type: 'string', default: 'postgresql://postgres@127.0.0.1:5432/postgres' },
  },
});
const rawName = positionals[0];
if (rawName === undefined || positionals.length > 1) {
  console.error('usage: npm run db:migrate:create -- NAME [--postgres-url ADMIN_URL]');
  process.exit(2);
}
const name = rawName
  .toLowerCase()
  .replace(/[^a-z0-9]+/g, '_')
  .replace(/^_+|_+$/g, '');
if (name === '') {
  console.error(`migration name ${JSON.stringify(rawName)} has no letters or digits`);
  process.exit(2);
}
const folder = `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${name}`;

// The PostgreSQL schema is derived from prisma/schema.prisma; regenerate it (and both clients).
const generate = spawnSync(
  process.execPath,
  [path.join(import.meta.dirname, '..', '..', 'prisma', 'generate.mjs')],
  { stdio: 'inherit' },
);
if (generate.status !== 0) process.exit(1);

for (const provider of ['sqlite', 'postgresql'] as const) {
  await mkdir(migrationsDirOf(provider), { recursive: true });
}
const scripts = new Map<Provider, string | null>();
scripts.set('sqlite', await diffSqlite());
scripts.set('postgresql', await diffPostgres(values['postgres-url']));

if ([...scripts.values()].every((script) => script === null)) {
  console.log('The schema and the migrations agree: no migration created.');
  process.exit(0);
}
for (const [provider, script] of scripts) {
  const dir = migrationsDirOf(provider);
  await mkdir(path.join(dir, folder), { recursive: true });
  await writeFile(path.join(dir, 'migration_lock.toml'), lockfileText(provider));
  await writeFile(
    path.join(dir, folder, 'migration.sql'),
    script ?? `-- No change for ${provider}; kept so both migration sets have the same names.\n`,
  );
  console.log(`created ${path.relative(process.cwd(), path.join(dir, folder, 'migration.sql'))}`);
}

async function diffSqlite(): Promise<string | null> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'shadowbox-migrate-'));
  try {
    return await diffAgainst({ provider: 'sqlite', file: path.join(dir, 'scratch.db') });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function diffPostgres(adminUrl: string): Promise<string | null> {
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is needed to create the PostgreSQL migration (scratch database); cannot connect with --postgres-url: ${String(error)}`,
      { cause: error },
    );
  }
  const database = `shadowbox_scratch_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE DATABASE "${database}"`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    return await diffAgainst({ provider: 'postgresql', url: url.href });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  }
}

/** Applies the existing migrations to the scratch database, then diffs it against the schema. */
async function diffAgainst(scratch: DatabaseConfig): Promise<string | null> {
  await migrateDatabase(scratch);
  return withSchemaEngine(scratch, schemaFileOf(scratch.provider), async (engine, schema) => {
    const result = await engine.diff({
      from: { tag: 'schemaDatasource', ...schema, configDir: process.cwd() },
      to: { tag: 'schemaDatamodel', ...schema },
      script: true,
      exitCode: true,
      filters: noFilters,
    });
    // exitCode 2: the diff is not empty.
    return result.exitCode === 2 ? (result.stdout ?? '') : null;
  });
}
