import { recordAudit } from '../audit/audit-log';
import { actorLabel, auditedAs } from '../auth/actor';
import { AppError } from '../errors/app-error';
import { getTask } from './get-task';
import { requireTask } from './task-access';
import type { Actor, TaskView } from './task-api';
import { statusOf } from './task-rows';
import type { TaskServiceDeps } from './task-service-deps';

export type ReopenTaskDeps = Pick<TaskServiceDeps, 'db' | 'store' | 'scheduler' | 'layout'>;

/**
 * Takes an approved task back to review: the approval is withdrawn (audited, and the event says
 * whose), and the task takes verdicts and hypotheses again. Only reviewers (and admins) reopen;
 * it is the one way an approved task changes.
 */
export async function reopenTask(
  deps: ReopenTaskDeps,
  { taskId, actor }: { readonly taskId: string; readonly actor: Actor },
): Promise<TaskView> {
  await deps.store.transact(taskId, async (tx, emit) => {
    await requireTask(tx, taskId, actor, 'reopen');
    const task = await tx.task.findUnique({
      where: { id: taskId },
      select: { status: true, approvedDiffSha256: true },
    });
    if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    const status = statusOf(task.status);
    if (status !== 'approved' || task.approvedDiffSha256 === null) {
      throw new AppError(
        'INVALID_STATE',
        `task ${taskId} is ${status}: only an approved task is reopened`,
      );
    }
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: 'task.reopen',
      target: taskId,
      details: { sha256: task.approvedDiffSha256 },
    });
    // The reducer withdraws the approval (approvedDiffSha256, approvalState) with the status.
    await emit({ type: 'task.reopened', sha256: task.approvedDiffSha256, by: actorLabel(actor) });
  });
  // Hypotheses that arrived while it was approved may now start an iteration.
  await deps.scheduler.schedule(taskId);
  return getTask(deps, { taskId, actor });
}
