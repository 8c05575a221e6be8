import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDb, type Db } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import type { DatabaseConfig } from '../env';

/** Test support: throw-away databases of both kinds. */
export interface ScratchDatabase {
  config: DatabaseConfig;
  drop(): Promise<void>;
}

/** A scratch database, migrated, with a client on it. */
export interface MigratedDatabase {
  scratch: ScratchDatabase;
  db: Db;
  /** Disconnects the client, then drops the database. */
  close(): Promise<void>;
}

/**
 * Creates a scratch database (`create` is a backend's `create`), migrates it and opens a client:
 * the set-up of every suite that runs on a real, empty, current schema.
 */
export async function openMigratedDatabase(
  create: () => Promise<ScratchDatabase>,
): Promise<MigratedDatabase> {
  const scratch = await create();
  await migrateDatabase(scratch.config);
  const db = createDb({ database: scratch.config });
  return {
    scratch,
    db,
    close: async () => {
      await db.$disconnect();
      await scratch.drop();
    },
  };
}

const POSTGRES_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

export const postgresAvailable =
  spawnSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432'], { stdio: 'ignore' }).status === 0;

export async function createSqliteDatabase(): Promise<ScratchDatabase> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'shadowbox-db-'));
  return {
    config: { provider: 'sqlite', file: path.join(dir, 'nested', 'shadowbox.db') },
    drop: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A fresh database with a random name on the local server (trust auth, user postgres). */
export async function createPostgresDatabase(): Promise<ScratchDatabase> {
  const name = `shadowbox_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    config: { provider: 'postgresql', url: url.href },
    drop: async () => {
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

async function withAdmin(use: (admin: pg.Client) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await use(admin);
  } finally {
    await admin.end();
  }
}

/** Runs one read-only query outside Prisma (to look at what the migrator left behind). */
export async function queryRows(
  config: DatabaseConfig,
  sql: string,
): Promise<Record<string, unknown>[]> {
  if (config.provider === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(config.file, { readonly: true });
    try {
      return db.prepare(sql).all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: config.url });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(sql)).rows;
  } finally {
    await client.end();
  }
}

export function tableNamesSql(config: DatabaseConfig): string {
  return config.provider === 'sqlite'
    ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name";
}

export const backends = [
  { name: 'SQLite', create: createSqliteDatabase, skip: false },
  {
    name: postgresAvailable
      ? 'PostgreSQL'
      : 'PostgreSQL (SKIPPED: `pg_isready -h 127.0.0.1` failed, no server on 127.0.0.1:5432)',
    create: createPostgresDatabase,
    // CI sets SHADOWBOX_TEST_POSTGRES=required: there a missing server fails instead of skipping.
    skip: !postgresAvailable && process.env.SHADOWBOX_TEST_POSTGRES !== 'required',
  },
] as const;

/** Runs one writing statement outside Prisma (rows as an older schema would have held them). */
export async function runStatement(config: DatabaseConfig, sql: string): Promise<void> {
  if (config.provider === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(config.file);
    try {
      db.prepare(sql).run();
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: config.url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
