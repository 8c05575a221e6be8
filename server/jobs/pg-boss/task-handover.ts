import type { Db } from '../../db/client';
import { activeStatuses } from '../../engine/loop';
import type { JobsLogger } from '../lease-backend';
import type { WorkerRegistry } from '../workers/worker-registry';
import type { StepBoss } from './step-boss';
import { stepQueue } from './step-jobs';

export interface TaskHandoverOptions {
  readonly db: Db;
  readonly registry: WorkerRegistry;
  readonly boss: StepBoss;
  /** Wakes the task on the worker that holds it, placing it on a live one first if need be. */
  wake(taskId: string): Promise<void>;
  /** How long the queues of stopped workers are swept before they are deleted (default 1 day). */
  readonly retainMs?: number;
  readonly logger: JobsLogger;
}

const activeStatusList = [...activeStatuses];
const ORPHANS_PER_ROUND = 200;

/**
 * Moves work away from stopped workers (dead, or drained). Run by every worker's monitor round:
 * - jobs still waiting, retrying or running in a stopped worker's queue are cancelled (a step
 *   still running there, on a worker wrongly thought dead, is aborted by its job watch) and their
 *   tasks woken where they are placed now. Queues are swept for `retainMs`, so a job sent to a
 *   worker just as it was found dead is never stranded;
 * - active tasks held by no live worker (theirs stopped, or none was live when they were made)
 *   are placed on the least loaded live worker and woken there, where the step resumes from the
 *   task's last checkpoint.
 */
export class TaskHandover {
  private readonly retainMs: number;

  constructor(private readonly options: TaskHandoverOptions) {
    this.retainMs = options.retainMs ?? 24 * 60 * 60 * 1000;
  }

  async reconcile(): Promise<void> {
    const { db, registry, boss } = this.options;
    const since = new Date(registry.now().getTime() - this.retainMs);
    const stopped = await registry.stoppedSince(since);
    const left = await boss.unfinishedJobs(stopped);
    await boss.cancel(left);
    const orphans = await db.task.findMany({
      where: {
        status: { in: activeStatusList },
        OR: [{ workerId: null }, { worker: { stoppedAt: { not: null } } }],
      },
      select: { id: true },
      orderBy: { createdAt: 'asc' },
      take: ORPHANS_PER_ROUND,
    });
    await this.wakeAll([...left.map((job) => job.taskId), ...orphans.map((task) => task.id)]);
    await this.forget(since);
  }

  /** Wakes each task (once) where it is placed; one failure does not stop the others. */
  async wakeAll(taskIds: readonly string[]): Promise<void> {
    for (const taskId of new Set(taskIds)) {
      try {
        await this.options.wake(taskId);
      } catch (error) {
        this.options.logger.error('[workers] moving a task failed', { taskId, error });
      }
    }
  }

  /** Deletes the queues and rows of workers stopped before `before` (swept long enough). */
  private async forget(before: Date): Promise<void> {
    const forgotten = await this.options.registry.forget(before);
    for (const workerId of forgotten) await this.options.boss.boss.deleteQueue(stepQueue(workerId));
  }
}
