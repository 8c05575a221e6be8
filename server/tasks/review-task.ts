import { recordAudit } from '../audit/audit-log';
import { actorLabel } from '../auth/actor';
import { AppError } from '../errors/app-error';
import { getTask } from './get-task';
import { resetToBaseline } from './rollback-task';
import type { Actor, ReviewInput, TaskView } from './task-api';
import { statusOf } from './task-rows';
import type { TaskServiceDeps } from './task-service';

export type ReviewTaskDeps = Pick<TaskServiceDeps, 'db' | 'store' | 'layout' | 'clock'>;

export interface ReviewTaskOptions {
  readonly taskId: string;
  readonly input: ReviewInput;
  readonly actor: Actor;
}

/**
 * Approves or rejects the diff under review, a compare-and-set on its hash (STALE_DIFF when the
 * reviewer saw another diff). A reject resets the worktree to the baseline.
 */
export async function reviewTask(
  deps: ReviewTaskDeps,
  { taskId, input, actor }: ReviewTaskOptions,
): Promise<TaskView> {
  if (actor.kind === 'token' && !actor.scopes.includes('reviewer')) {
    throw new AppError(
      'FORBIDDEN',
      "approving or rejecting needs a token with the 'reviewer' scope",
    );
  }
  const by = actorLabel(actor);
  const baseline = await deps.store.transact(taskId, async (tx, emit) => {
    const task = await tx.task.findUnique({
      where: { id: taskId },
      select: { status: true, diffSha256: true, baselineCommit: true },
    });
    if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    const status = statusOf(task.status);
    const reviewable =
      input.verdict === 'approve'
        ? status === 'awaiting_review'
        : status === 'awaiting_review' || status === 'approved';
    if (!reviewable) {
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
        comment: input.comment ?? null,
      },
    });
    await recordAudit(tx, {
      actor: by,
      action: `task.${input.verdict}`,
      target: taskId,
      details: { sha256: input.sha256 },
    });
    await emit(
      input.verdict === 'approve'
        ? { type: 'task.approved', sha256: input.sha256, by }
        : { type: 'task.rejected', sha256: input.sha256, by },
      input.verdict === 'reject' ? { finishedAt: deps.clock.now() } : {},
    );
    return task.baselineCommit;
  });
  if (input.verdict === 'reject' && baseline !== null) {
    await resetToBaseline(deps, await deps.store.load(taskId), baseline);
  }
  return getTask(deps, { taskId });
}
