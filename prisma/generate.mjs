// Generates both Prisma clients (run by `npm ci` through the postinstall script).
//
// A Prisma client is bound to one provider, and a schema holds one datasource, so the PostgreSQL
// schema is derived from prisma/schema.prisma (the only file to edit) by swapping the provider
// and the output directory. The derived file is written here, so it can never drift.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const root = path.dirname(import.meta.dirname);
const source = path.join(root, 'prisma', 'schema.prisma');
const derived = path.join(root, 'prisma', 'postgres', 'schema.prisma');

/** @param {string} text */
export function derivePostgresSchema(text) {
  const provider = /(datasource\s+db\s*\{[^}]*?provider\s*=\s*)"sqlite"/;
  const output =
    /(generator\s+client\s*\{[^}]*?output\s*=\s*)"\.\.\/server\/db\/generated\/sqlite"/;
  if (!provider.test(text) || !output.test(text)) {
    throw new Error(
      `${source}: expected datasource provider "sqlite" and generator output "../server/db/generated/sqlite"`,
    );
  }
  return (
    '// GENERATED from ../schema.prisma by prisma/generate.mjs: do not edit.\n' +
    text
      .replace(provider, '$1"postgresql"')
      .replace(output, '$1"../../server/db/generated/postgres"')
  );
}

function run() {
  const text = derivePostgresSchema(readFileSync(source, 'utf8'));
  mkdirSync(path.dirname(derived), { recursive: true });
  let current = null;
  try {
    current = readFileSync(derived, 'utf8');
  } catch {
    // first run
  }
  if (current !== text) writeFileSync(derived, text);

  const prisma = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
  for (const schema of [source, derived]) {
    const result = spawnSync(process.execPath, [prisma, 'generate', '--schema', schema], {
      cwd: root,
      stdio: 'inherit',
    });
    if (result.status !== 0) {
      throw new Error(`prisma generate --schema ${path.relative(root, schema)} failed`);
    }
  }
}

if (process.argv[1] === import.meta.filename) run();
