import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as bindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import pg from 'pg';
import type { DatabaseConfig } from '../env';

/**
 * Prisma's schema engine compiled to WebAssembly, driven through a driver adapter: the way to
 * diff a schema against a database on machines that cannot download Prisma's native engine.
 * Development and test tool only (creating migrations, checking them); start-up never loads it.
 */
export type SchemaEngine = bindings.SchemaEngine;

export const noFilters = { externalTables: [], externalEnums: [] };

let initialized = false;

function initialize(): void {
  if (initialized) return;
  // The package's entry imports the .wasm as an ES module, which Node 20 cannot; instantiate
  // the same module by hand and hand it to the generated bindings.
  const require = createRequire(import.meta.url);
  const bindingsFile = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const module = new WebAssembly.Module(
    readFileSync(path.join(path.dirname(bindingsFile), 'schema_engine_bg.wasm')),
  );
  const instance = new WebAssembly.Instance(module, {
    './schema_engine_bg.js': bindings as unknown as WebAssembly.ModuleImports,
  });
  (bindings as unknown as { __wbg_set_wasm(exports: WebAssembly.Exports): void }).__wbg_set_wasm(
    instance.exports,
  );
  (instance.exports as { __wbindgen_start(): void }).__wbindgen_start();
  initialized = true;
}

/**
 * Runs `use` with an engine connected to `database`; `schemaFile` is the Prisma schema whose
 * provider matches the database. Closes the connection afterwards.
 */
export async function withSchemaEngine<T>(
  database: DatabaseConfig,
  schemaFile: string,
  use: (engine: SchemaEngine, schema: { files: { path: string; content: string }[] }) => Promise<T>,
): Promise<T> {
  initialize();
  const content = readFileSync(schemaFile, 'utf8');
  let pool: pg.Pool | undefined;
  let factory: PrismaBetterSqlite3 | PrismaPg;
  if (database.provider === 'sqlite') {
    factory = new PrismaBetterSqlite3({ url: database.file });
  } else {
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    patchCharColumns(pool);
    factory = new PrismaPg(pool);
  }
  const engine = await bindings.SchemaEngine.new(
    { datamodels: [[path.basename(schemaFile), content]] },
    () => undefined,
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  try {
    return await use(engine, { files: [{ path: path.basename(schemaFile), content }] });
  } finally {
    engine.free();
    await pool?.end();
  }
}

/**
 * The engine's PostgreSQL introspection reads catalog columns of type "char" (OID 18), which
 * @prisma/adapter-pg 7.10 refuses ("Column type 'char' could not be deserialized"). pg already
 * returns them as one-character strings, so reporting them as text (OID 25) is exact.
 */
function patchCharColumns(pool: pg.Pool): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = async (
    ...args: unknown[]
  ) => {
    const result = await query(...args);
    const fields = (result as { fields?: { dataTypeID: number }[] } | undefined)?.fields ?? [];
    for (const field of fields) if (field.dataTypeID === 18) field.dataTypeID = 25;
    return result;
  };
}
