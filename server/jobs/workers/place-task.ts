import type { Db } from '../../db/client';
import { AppError } from '../../errors/app-error';
import { chooseWorker } from './placement';
import type { WorkerRegistry } from './worker-registry';

export interface PlaceTaskOptions {
  readonly db: Db;
  readonly registry: WorkerRegistry;
  readonly taskId: string;
  /** A heartbeat older than this means the worker is gone. */
  readonly expiryMs: number;
}

/** Where a task's jobs go, and whether it just got there (a new task, or one moved). */
export interface Placement {
  readonly workerId: string;
  readonly moved: boolean;
}

const PLACE_ROUNDS = 5;

/**
 * The worker a task's jobs go to: the one holding its worktree (`Task.workerId`) while that worker
 * is live, else the least loaded live worker, recorded with a compare-and-set on the previous
 * holder so that processes placing the same task at once agree on one worker. Null when no worker
 * is live: the task waits, and the first worker that starts adopts it (see `WorkerMonitor`).
 */
export async function placeTask({
  db,
  registry,
  taskId,
  expiryMs,
}: PlaceTaskOptions): Promise<Placement | null> {
  for (let round = 0; round < PLACE_ROUNDS; round++) {
    const task = await db.task.findUnique({ where: { id: taskId }, select: { workerId: true } });
    if (task === null) throw new AppError('NOT_FOUND', `No task ${taskId}`);
    const live = await registry.live(expiryMs);
    if (task.workerId !== null && live.some((w) => w.id === task.workerId)) {
      return { workerId: task.workerId, moved: false };
    }
    const chosen = chooseWorker(live);
    if (chosen === null) return null;
    const { count } = await db.task.updateMany({
      where: { id: taskId, workerId: task.workerId },
      data: { workerId: chosen },
    });
    if (count === 1) return { workerId: chosen, moved: true };
    // Another process placed it between the read and the write: take its choice if it is live.
  }
  throw new AppError('CONFLICT', `Could not place task ${taskId}: its worker keeps changing`);
}
