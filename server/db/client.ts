import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import Database from 'better-sqlite3';
import { makeDatabaseFilePrivate } from './private-file';
import type { DatabaseConfig } from '../env';
import { PrismaClient as PostgresClient } from './generated/postgres/client';
import { PrismaClient } from './generated/sqlite/client';

/**
 * The database handle services use. Typed as the SQLite client: a Prisma client is generated per
 * provider, and the SQLite one offers the subset both databases support, so code written against
 * this type runs on either (no `mode: 'insensitive'`, no PostgreSQL-only filters).
 */
export type Db = PrismaClient;
export type { Prisma } from './generated/sqlite/client';

export interface CreateDbOptions {
  /** How long a write waits for another connection's lock (SQLite only), in ms. */
  busyTimeoutMs?: number;
  /** Connections in the pool (PostgreSQL only). */
  poolSize?: number;
}

/**
 * Opens the database named by the environment: better-sqlite3 for a file (WAL journal, busy
 * timeout, directory created), a pg pool for PostgreSQL. Apply migrations first
 * (`migrateDatabase`); call `$disconnect()` when done.
 *
 * SQLite: create ONE Db per process and share it. better-sqlite3 is synchronous, so a second
 * connection in the same process that waits for the first one's write lock blocks the thread the
 * first one needs to commit (measured: 60 appends took minutes). Other processes are fine: they
 * wait on the lock (busy timeout) while this one commits. Also: its queries resolve without
 * yielding to I/O, so a loop that only awaits SQLite calls starves timers and sockets; long loops
 * should `await setImmediate()` now and then.
 */
export function createDb(env: { database: DatabaseConfig }, options: CreateDbOptions = {}): Db {
  const { database } = env;
  if (database.provider === 'sqlite') {
    const timeout = options.busyTimeoutMs ?? 10_000;
    mkdirSync(path.dirname(database.file), { recursive: true });
    makeDatabaseFilePrivate(database.file);
    // WAL lets readers (SSE streams, the UI) proceed while a writer commits; the mode is stored in
    // the file, so setting it once through a short-lived connection covers the adapter's own.
    const setup = new Database(database.file, { timeout });
    try {
      setup.pragma('journal_mode = WAL');
    } finally {
      setup.close();
    }
    return new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: database.file, timeout }) });
  }
  const adapter = new PrismaPg({
    connectionString: database.url,
    max: options.poolSize ?? 10,
  });
  // Same models, same generated API: only the SQL dialect differs (see `Db`).
  return new PostgresClient({ adapter }) as unknown as Db;
}
