import { recordAudit } from '../audit/audit-log';
import { actorLabel, auditedAs } from '../auth/actor';
import { AppError } from '../errors/app-error';
import { activeStatuses } from '../engine/loop';
import { getTask } from './get-task';
import { requireTask } from './task-access';
import type { Actor, TaskView } from './task-api';
import { statusOf } from './task-rows';
import type { TaskServiceDeps } from './task-service-deps';

export type CancelTaskDeps = Pick<TaskServiceDeps, 'db' | 'store' | 'scheduler' | 'layout'>;

export interface CancelTaskOptions {
  readonly taskId: string;
  readonly actor: Actor;
}

/** Asks an active task to stop; its next step rolls back and ends it. */
export async function cancelTask(
  deps: CancelTaskDeps,
  { taskId, actor }: CancelTaskOptions,
): Promise<TaskView> {
  const by = actorLabel(actor);
  await deps.store.transact(taskId, async (tx) => {
    await requireTask(tx, taskId, actor, 'cancel');
    const task = await tx.task.findUnique({ where: { id: taskId }, select: { status: true } });
    if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    const status = statusOf(task.status);
    if (!activeStatuses.has(status)) {
      throw new AppError(
        'INVALID_STATE',
        `task ${taskId} is ${status}: there is nothing to cancel`,
      );
    }
    await tx.task.update({ where: { id: taskId }, data: { cancelRequestedBy: by } });
    await recordAudit(tx, { ...auditedAs(actor), action: 'task.cancel', target: taskId });
  });
  // The step in progress (if any) dies now; the next step rolls back and ends the task.
  await deps.scheduler.interrupt(taskId);
  await deps.scheduler.schedule(taskId);
  return getTask(deps, { taskId, actor });
}
