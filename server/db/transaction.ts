import { setTimeout as sleep } from 'node:timers/promises';
import type { Db, Prisma } from './client';

export type Tx = Prisma.TransactionClient;

const MAX_ATTEMPTS = 8;
// P2002 unique violation, P2034 write conflict/deadlock, P2028 transaction could not start in time,
// P1008 operation timed out (SQLite busy).
const RETRYABLE = new Set(['P2002', 'P2034', 'P2028', 'P1008']);

/**
 * Runs `work` in one interactive transaction, retrying (with jittered backoff) when the database
 * reports a conflict or is busy: `work` must therefore be safe to run again from the start.
 */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(work, { maxWait: 10_000, timeout: 20_000 });
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(prismaCode(error) ?? '')) throw error;
      await sleep(Math.random() * 5 * 2 ** attempt);
    }
  }
}

export function prismaCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
