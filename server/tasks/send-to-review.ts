import { recordAudit } from '../audit/audit-log';
import { actorLabel, auditedAs } from '../auth/actor';
import { AppError } from '../errors/app-error';
import { getTask } from './get-task';
import { requireTask } from './task-access';
import type { Actor, TaskView } from './task-api';
import { statusOf } from './task-rows';
import type { TaskServiceDeps } from './task-service-deps';

export type SendToReviewDeps = Pick<TaskServiceDeps, 'db' | 'store' | 'scheduler' | 'layout'>;

/**
 * "Send to review now": a task waiting for hypotheses puts its newest checkpoint up for review
 * without waiting out `hypothesisWaitSecs`. Only a checkpoint beyond the baseline qualifies: the
 * loop commits a winner only when it fixed a failing test and broke none, so the review is of
 * real progress, marked partial. The step waiting for hypotheses is woken and does it (the
 * lifecycle is the loop's to write); asking twice is asking once.
 */
export async function sendToReview(
  deps: SendToReviewDeps,
  { taskId, actor }: { readonly taskId: string; readonly actor: Actor },
): Promise<TaskView> {
  const by = actorLabel(actor);
  const asked = await deps.store.transact(taskId, async (tx, emit) => {
    await requireTask(tx, taskId, actor, 'steer');
    const task = await tx.task.findUnique({
      where: { id: taskId },
      select: {
        status: true,
        baselineCommit: true,
        checkpointSha: true,
        cancelRequestedBy: true,
        reviewNowRequestedBy: true,
      },
    });
    if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    const status = statusOf(task.status);
    if (status !== 'awaiting_hypotheses' || task.cancelRequestedBy !== null) {
      throw new AppError(
        'INVALID_STATE',
        `task ${taskId} is ${task.cancelRequestedBy === null ? status : 'being cancelled'}: only a task waiting for hypotheses is sent to review early`,
      );
    }
    const checkpoint = task.checkpointSha;
    if (checkpoint === null || checkpoint === task.baselineCommit) {
      throw new AppError(
        'INVALID_STATE',
        `task ${taskId} has nothing to review yet: no iteration fixed a failing test (its checkpoint is the baseline)`,
      );
    }
    if (task.reviewNowRequestedBy !== null) return false;
    await tx.task.update({ where: { id: taskId }, data: { reviewNowRequestedBy: by } });
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: 'task.review_now',
      target: taskId,
      details: { checkpointSha: checkpoint },
    });
    await emit({ type: 'review.requested_now', by, checkpointSha: checkpoint });
    return true;
  });
  // The parked step wakes now instead of at the end of the wait.
  if (asked) await deps.scheduler.schedule(taskId);
  return getTask(deps, { taskId, actor });
}
