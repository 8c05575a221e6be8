import { createDb, type Db } from '../../db/client';
import { migrateDatabase } from '../../db/migrate';
import { loadEnv } from '../../env';
import { httpStatusOf, isAppError, type AppErrorCode } from '../../errors/app-error';
import { exitCodes, type CliIo } from '../cli-io';

/**
 * Runs `work` against the environment's database (migrated first, so it works on a fresh
 * machine), mapping refusals to exit 2 and faults to exit 1, with the message on stderr (or as
 * `{"error":{"code","message"}}` on stdout with --json).
 */
export async function withDatabase(
  io: CliIo,
  name: string,
  json: boolean,
  work: (db: Db) => Promise<void>,
): Promise<number> {
  let db: Db | undefined;
  try {
    const env = loadEnv(io.env, io.cwd);
    await migrateDatabase(env.database);
    db = createDb(env);
    await work(db);
    return exitCodes.ok;
  } catch (error) {
    if (isAppError(error)) return failWith(io, name, json, error);
    const message = error instanceof Error ? error.message : String(error);
    return failWith(io, name, json, { code: 'INTERNAL', message: `database failure: ${message}` });
  } finally {
    await db?.$disconnect();
  }
}

export function failWith(
  io: CliIo,
  name: string,
  json: boolean,
  error: { code: AppErrorCode; message: string },
): number {
  if (json) {
    io.stdout.write(`${JSON.stringify({ error: { code: error.code, message: error.message } })}\n`);
  } else {
    io.stderr.write(`shadowbox ${name}: ${error.message} [${error.code}]\n`);
  }
  return httpStatusOf(error.code) < 500 ? exitCodes.rejected : exitCodes.failure;
}
