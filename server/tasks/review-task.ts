import { recordAudit } from '../audit/audit-log';
import { actorLabel, auditedAs, personOf } from '../auth/actor';
import { AppError } from '../errors/app-error';
import { submitReview } from '../reviews';
import { getTask } from './get-task';
import { resetToBaseline } from './rollback-task';
import { requireTask } from './task-access';
import type { Actor, ReviewInput, TaskView } from './task-api';
import { statusOf } from './task-rows';
import type { TaskServiceDeps } from './task-service-deps';
import { refuseWhileApproved } from './approved-guard';

export type ReviewTaskDeps = Pick<
  TaskServiceDeps,
  'db' | 'store' | 'layout' | 'clock' | 'scheduler' | 'requireSecondReviewer'
>;

export interface ReviewTaskOptions {
  readonly taskId: string;
  readonly input: ReviewInput;
  readonly actor: Actor;
}

/**
 * Approves or rejects the diff under review, a compare-and-set on its hash (STALE_DIFF when the
 * reviewer saw another diff). Only a task awaiting review takes a verdict: an approval is changed
 * only by reopening it (reopen-task.ts), never silently overridden. An approval is the review
 * conversation's (one set of rules whichever way it comes: open threads and standing requests
 * for changes refuse it); a reject resets the worktree to the baseline. The review row records
 * the person (or the reviewer token's owner).
 */
export async function reviewTask(
  deps: ReviewTaskDeps,
  { taskId, input, actor }: ReviewTaskOptions,
): Promise<TaskView> {
  if (input.verdict === 'approve') {
    await submitReview(deps, {
      taskId,
      input: { verdict: 'approve', sha256: input.sha256, summary: input.comment },
      actor,
    });
    return getTask(deps, { taskId, actor });
  }
  const by = actorLabel(actor);
  const person = personOf(actor);
  const baseline = await deps.store.transact(taskId, async (tx, emit) => {
    await requireTask(tx, taskId, actor, 'review');
    const task = await tx.task.findUnique({
      where: { id: taskId },
      select: { status: true, diffSha256: true, baselineCommit: true },
    });
    if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    const status = statusOf(task.status);
    refuseWhileApproved(taskId, status, 'it can be reviewed again');
    if (status !== 'awaiting_review') {
      throw new AppError(
        'INVALID_STATE',
        `task ${taskId} is ${status}: there is nothing to ${input.verdict}`,
      );
    }
    if (task.diffSha256 !== input.sha256) {
      throw new AppError(
        'STALE_DIFF',
        `the diff changed since you loaded it: you reviewed ${input.sha256.slice(0, 12)}…, the current diff is ${String(task.diffSha256).slice(0, 12)}…; reload and review it again`,
        { details: { reviewed: input.sha256, current: task.diffSha256 } },
      );
    }
    await tx.review.create({
      data: {
        taskId,
        verdict: input.verdict,
        diffSha256: input.sha256,
        reviewer: by,
        reviewerId: person?.id ?? null,
        comment: input.comment ?? null,
      },
    });
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: `task.${input.verdict}`,
      target: taskId,
      details: { sha256: input.sha256 },
    });
    await emit(
      { type: 'task.rejected', sha256: input.sha256, by },
      { finishedAt: deps.clock.now() },
    );
    return task.baselineCommit;
  });
  if (baseline !== null) {
    await resetToBaseline(deps, await deps.store.load(taskId), baseline);
  }
  return getTask(deps, { taskId, actor });
}
