import { recordAudit } from '../audit/audit-log';
import { actorLabel, auditedAs, personOf } from '../auth/actor';
import { AppError } from '../errors/app-error';
import { getTask } from './get-task';
import { resetToBaseline } from './rollback-task';
import { requireTask } from './task-access';
import type { Actor, ReviewInput, TaskView } from './task-api';
import { statusOf } from './task-rows';
import type { TaskServiceDeps } from './task-service';

export type ReviewTaskDeps = Pick<TaskServiceDeps, 'db' | 'store' | 'layout' | 'clock'> & {
  /** SHADOWBOX_REQUIRE_SECOND_REVIEWER: nobody approves a diff they (or their tokens) won. */
  readonly requireSecondReviewer?: boolean | undefined;
};

export interface ReviewTaskOptions {
  readonly taskId: string;
  readonly input: ReviewInput;
  readonly actor: Actor;
}

/**
 * Approves or rejects the diff under review, a compare-and-set on its hash (STALE_DIFF when the
 * reviewer saw another diff). Only a task awaiting review takes a verdict: an approval is changed
 * only by reopening it (reopen-task.ts), never silently overridden. A reject resets the worktree
 * to the baseline. The review row records the person (or the reviewer token's owner).
 */
export async function reviewTask(
  deps: ReviewTaskDeps,
  { taskId, input, actor }: ReviewTaskOptions,
): Promise<TaskView> {
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
    if (status === 'approved') {
      throw new AppError(
        'INVALID_STATE',
        `task ${taskId} is already approved: a reviewer must reopen it before it can be ${input.verdict === 'approve' ? 'approved' : 'rejected'} again`,
      );
    }
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
    if (input.verdict === 'approve' && deps.requireSecondReviewer === true && person !== null) {
      const own = await tx.hypothesis.findFirst({
        where: { taskId, verdict: 'winner', submittedById: person.id },
        select: { name: true },
      });
      if (own !== null) {
        throw new AppError(
          'FORBIDDEN',
          `${person.username} submitted the winning hypothesis ${own.name}: a second reviewer must approve it (SHADOWBOX_REQUIRE_SECOND_REVIEWER)`,
        );
      }
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
  return getTask(deps, { taskId, actor });
}
