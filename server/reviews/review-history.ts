import type { Actor } from '../auth/actor';
import { AppError } from '../errors/app-error';
import { requireReviewedTask } from './review-access';
import type { EarlierDiff, ReviewHistoryItem } from './review-api';
import type { ReviewServiceDeps } from './review-deps';
import { personVerdicts } from './review-state';

/** People's reviews of the task, oldest first, with how each request for changes was cleared. */
export async function reviewHistory(
  deps: Pick<ReviewServiceDeps, 'db'>,
  { taskId, actor }: { taskId: string; actor: Actor },
): Promise<ReviewHistoryItem[]> {
  await requireReviewedTask(deps.db, taskId, actor, 'see');
  const rows = await deps.db.review.findMany({
    where: { taskId, verdict: { in: [...personVerdicts] } },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map((r) => ({
    id: r.id,
    verdict: r.verdict,
    by: r.reviewer,
    summary: r.comment,
    sha256: r.diffSha256,
    at: r.createdAt.toISOString(),
    cleared:
      r.clearedAt === null
        ? null
        : {
            by: r.clearedBy ?? '',
            how: r.clearedHow ?? '',
            reason: r.dismissReason,
            at: r.clearedAt.toISOString(),
          },
  }));
}

/** A diff the task's threads or reviews were on: only those, so a hash names no other task's. */
export async function earlierDiff(
  deps: Pick<ReviewServiceDeps, 'db'>,
  { taskId, sha256, actor }: { taskId: string; sha256: string; actor: Actor },
): Promise<EarlierDiff> {
  await requireReviewedTask(deps.db, taskId, actor, 'see');
  const [thread, review] = await Promise.all([
    deps.db.reviewThread.findFirst({
      where: { taskId, OR: [{ writtenOnSha256: sha256 }, { diffSha256: sha256 }] },
      select: { id: true },
    }),
    deps.db.review.findFirst({ where: { taskId, diffSha256: sha256 }, select: { id: true } }),
  ]);
  const diff =
    thread === null && review === null
      ? null
      : await deps.db.diff.findUnique({ where: { sha256 }, select: { bytes: true } });
  if (diff === null) throw new AppError('NOT_FOUND', `task ${taskId} has no diff ${sha256}`);
  return { diff: Buffer.from(diff.bytes).toString('utf8'), sha256 };
}
