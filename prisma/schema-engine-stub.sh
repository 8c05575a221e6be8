#!/bin/sh
# Stand-in for Prisma's native schema engine, which cannot be downloaded on these machines.
# `prisma generate` only needs the path to exist. It must FAIL: a stub that exits 0 makes
# `prisma migrate deploy` / `db push` report success while doing nothing. Migrations are
# created and applied through the WebAssembly engine instead: see prisma/README.md.
echo "shadowbox: Prisma's native schema engine is not installed here; use npm run db:migrate:create (create) — migrations are applied at start-up by server/db/migrate.ts" >&2
exit 1
