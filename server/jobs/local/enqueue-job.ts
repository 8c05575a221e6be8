import type { Db } from '../../db/client';
import { AppError } from '../../errors/app-error';
import { prismaCode } from '../../db/transaction';
import { checkDate } from './job-checks';
import { unlocked } from './job-lease';
import type { EnqueueResult } from './job-types';

const ENQUEUE_ROUNDS = 10;

/** See `JobQueue.enqueue`. */
export async function enqueueJob(
  db: Db,
  now: Date,
  taskId: string,
  options: { runAt?: Date },
): Promise<EnqueueResult> {
  if (options.runAt !== undefined) checkDate(options.runAt, 'runAt');
  const wakeAt = options.runAt !== undefined && options.runAt < now ? options.runAt : now;
  for (let round = 0; round < ENQUEUE_ROUNDS; round++) {
    const job = await db.job.findUnique({
      where: { taskId },
      select: { id: true, state: true, runAt: true },
    });
    if (job === null) {
      try {
        await db.job.create({
          data: { taskId, state: 'queued', runAt: options.runAt ?? now },
        });
        return 'created';
      } catch (error) {
        const code = prismaCode(error);
        if (code === 'P2002') continue; // Another caller created it first: wake that one.
        if (code === 'P2003') throw new AppError('NOT_FOUND', `No task ${taskId}`);
        throw error;
      }
    }
    if (job.state === 'running') {
      const { count } = await db.job.updateMany({
        where: { id: job.id, state: 'running' },
        data: { wakeRequested: true },
      });
      if (count === 1) return 'wake-requested';
    } else if (job.state === 'queued') {
      if (job.runAt <= wakeAt) return 'unchanged';
      const { count } = await db.job.updateMany({
        where: { id: job.id, state: 'queued', runAt: { gt: wakeAt } },
        data: { runAt: wakeAt },
      });
      if (count === 1) return 'woken';
    } else {
      // parked or done. A new run of a done job starts with a clean slate of attempts.
      const { count } = await db.job.updateMany({
        where: { id: job.id, state: job.state },
        data: { state: 'queued', runAt: wakeAt, attempts: 0, ...unlocked },
      });
      if (count === 1) return 'woken';
    }
    // The job changed between the read and the write: look again.
  }
  throw new AppError('CONFLICT', `Could not enqueue task ${taskId}: its job keeps changing`);
}
