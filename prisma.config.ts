import path from 'node:path';
import { defineConfig } from 'prisma/config';

// Prisma's CLI wants a native schema engine that it downloads from a host these machines cannot
// reach. `prisma generate` only needs the path to exist, so point it at a stub that always FAILS
// (never one that exits 0: `migrate deploy`/`db push` would then "succeed" doing nothing).
// Migrations are created and applied with the WebAssembly engine instead (prisma/README.md).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(
  import.meta.dirname,
  'prisma',
  'schema-engine-stub.sh',
);

// No update checks or telemetry: there is no network to reach, and a hanging request slows
// every `npm ci`.
process.env.CHECKPOINT_DISABLE ??= '1';

export default defineConfig({
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations') },
  // Only for CLI commands that talk to a database; they reach the stub above and fail with its
  // explanation. The application reads DATABASE_URL through server/env.ts.
  datasource: { url: process.env.DATABASE_URL ?? 'file:./data/shadowbox.db' },
});
