import { AppError } from '../errors/app-error';
import type { Db, Prisma } from './client';
import { inTransaction, prismaCode, type Tx } from './transaction';

/**
 * Task events, persisted before they are published. `seq` is per task, starts at 1 and has no
 * gaps: it is the task's `lastEventId` counter, incremented in the same transaction that inserts
 * the event, so a rolled-back append leaves no hole and two writers never get the same number
 * (PostgreSQL: the row lock on the task; SQLite: the database write lock). The unique index on
 * (taskId, seq) is the backstop; a conflict or a busy database is retried.
 */
export interface StoredEvent {
  seq: number;
  type: string;
  payload: Prisma.JsonValue;
  createdAt: Date;
}

export async function appendEvent(
  db: Db,
  taskId: string,
  type: string,
  payload: Prisma.InputJsonValue,
): Promise<StoredEvent> {
  return inTransaction(db, (tx) => appendEventInTransaction(tx, taskId, type, payload));
}

/**
 * The same, inside a caller's transaction, so a state change and the event announcing it commit
 * together. The caller owns retries.
 */
export async function appendEventInTransaction(
  tx: Tx,
  taskId: string,
  type: string,
  payload: Prisma.InputJsonValue,
): Promise<StoredEvent> {
  let lastEventId: number;
  try {
    ({ lastEventId } = await tx.task.update({
      where: { id: taskId },
      data: { lastEventId: { increment: 1 } },
      select: { lastEventId: true },
    }));
  } catch (error) {
    if (prismaCode(error) === 'P2025') throw new AppError('NOT_FOUND', `No task ${taskId}`);
    throw error;
  }
  return tx.event.create({
    data: { taskId, seq: lastEventId, type, payload },
    select: { seq: true, type: true, payload: true, createdAt: true },
  });
}

/** Events with `seq > afterSeq`, oldest first, at most `limit` (1–1000): resume from an SSE id. */
export async function eventsSince(
  db: Db | Tx,
  taskId: string,
  afterSeq: number,
  limit = 500,
): Promise<StoredEvent[]> {
  if (!Number.isInteger(afterSeq) || afterSeq < 0) {
    throw new AppError('INVALID_ARGUMENT', `afterSeq must be a whole number ≥ 0, got ${afterSeq}`);
  }
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `limit must be a whole number from 1 to 1000, got ${limit}`,
    );
  }
  return db.event.findMany({
    where: { taskId, seq: { gt: afterSeq } },
    orderBy: { seq: 'asc' },
    take: limit,
    select: { seq: true, type: true, payload: true, createdAt: true },
  });
}
