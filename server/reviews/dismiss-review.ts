import { actorLabel, auditedAs, personOf, type Actor } from '../auth/actor';
import { recordAudit } from '../audit/audit-log';
import { AppError } from '../errors/app-error';
import { isAdmin, requireReviewedTask } from './review-access';
import type { ReviewServiceDeps } from './review-deps';

/**
 * Sets a standing request for changes aside, with a reason: only the reviewer who made it, or an
 * admin, may (it is sticky, as in Gerrit and GitHub). Audited, and streamed as an event.
 */
export async function dismissReview(
  deps: ReviewServiceDeps,
  {
    taskId,
    reviewId,
    reason,
    actor,
  }: { taskId: string; reviewId: string; reason: string; actor: Actor },
): Promise<void> {
  const why = reason.trim();
  if (why === '') {
    throw new AppError('INVALID_ARGUMENT', 'dismissing a request for changes needs a reason');
  }
  if (why.length > 2000) {
    throw new AppError('INVALID_ARGUMENT', 'a reason may hold at most 2000 characters');
  }
  const by = actorLabel(actor);
  await deps.store.transact(taskId, async (tx, emit) => {
    await requireReviewedTask(tx, taskId, actor, 'review');
    const review = await tx.review.findFirst({
      where: { id: reviewId, taskId },
      select: { verdict: true, reviewer: true, reviewerId: true, clearedAt: true },
    });
    if (review === null) throw new AppError('NOT_FOUND', `no review ${reviewId} in task ${taskId}`);
    if (review.verdict !== 'request_changes' || review.clearedAt !== null) {
      throw new AppError(
        'INVALID_STATE',
        `review ${reviewId} is not a standing request for changes: there is nothing to dismiss`,
      );
    }
    const person = personOf(actor);
    if (!isAdmin(actor) && (review.reviewerId === null || review.reviewerId !== person?.id)) {
      throw new AppError(
        'FORBIDDEN',
        `only ${review.reviewer}, who requested the changes, or an admin can dismiss that request`,
      );
    }
    await tx.review.update({
      where: { id: reviewId },
      data: {
        clearedAt: deps.clock.now(),
        clearedBy: by,
        clearedHow: 'dismissed',
        dismissReason: why,
      },
    });
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: 'review.dismiss',
      target: taskId,
      details: { reviewId, reason: why },
    });
    await emit({ type: 'review.dismissed', reviewId, by, reason: why });
  });
}
