import type { Db } from '../db/client';
import type { Tx } from '../db/transaction';
import type { ReviewRequest, ReviewThreadBrief } from '../engine/loop';
import type { ReviewSummaryView } from './review-api';
import { threadBriefOf, threadViewOf, threadWithComments } from './thread-rows';
import { defaultMaxReviewRounds } from './review-deps';

/** The open threads on a diff, in file and line order, as views. */
async function openThreads(db: Db | Tx, taskId: string, sha256: string) {
  const rows = await db.reviewThread.findMany({
    where: { taskId, diffSha256: sha256, status: 'open' },
    orderBy: [{ path: 'asc' }, { startLine: 'asc' }, { createdAt: 'asc' }],
    ...threadWithComments,
  });
  return rows.map(threadViewOf);
}

export async function openThreadBriefs(
  db: Db | Tx,
  taskId: string,
  sha256: string,
): Promise<ReviewThreadBrief[]> {
  return (await openThreads(db, taskId, sha256)).map(threadBriefOf);
}

/** People's verdicts; a reviewer model's comments have verdicts of their own, shown apart. */
export const personVerdicts = ['approve', 'reject', 'comment', 'request_changes'] as const;

export const isPersonVerdict = (verdict: string): boolean =>
  (personVerdicts as readonly string[]).includes(verdict);

const byPeople = { verdict: { in: [...personVerdicts] } };

/**
 * The task view's `review`: the round, where the conversation stands, the newest summary, who
 * has changes standing, and the threads still open on the diff under review.
 */
export async function reviewSummaryOf(
  db: Db,
  task: { readonly id: string; readonly reviewRounds: number; readonly diffSha256: string | null },
  maxRounds = defaultMaxReviewRounds,
): Promise<ReviewSummaryView> {
  const reviews = await db.review.findMany({
    where: { taskId: task.id, ...byPeople },
    orderBy: { createdAt: 'asc' },
    select: { verdict: true, reviewer: true, comment: true, clearedAt: true },
  });
  const standing = reviews.filter((r) => r.verdict === 'request_changes' && r.clearedAt === null);
  const last = reviews.at(-1);
  const state =
    standing.length > 0
      ? 'changes_requested'
      : last === undefined
        ? 'none'
        : last.verdict === 'approve'
          ? 'approved'
          : last.verdict === 'reject'
            ? 'rejected'
            : // A comment, or a request for changes since cleared: no verdict stands.
              'commented';
  const counts = await db.reviewThread.groupBy({
    by: ['status'],
    where: { taskId: task.id },
    _count: { _all: true },
  });
  const count = (status: string): number =>
    counts.find((c) => c.status === status)?._count._all ?? 0;
  return {
    round: task.reviewRounds,
    maxRounds,
    state,
    summary: reviews.findLast((r) => r.comment !== null)?.comment ?? null,
    changesRequestedBy: [...new Set(standing.map((r) => r.reviewer))],
    openThreads: task.diffSha256 === null ? [] : await openThreads(db, task.id, task.diffSha256),
    outdatedThreads: count('outdated'),
    resolvedThreads: count('resolved'),
  };
}

/**
 * What a review round's iteration answers (the fixer's `review`): the summaries of the requests
 * for changes that stand and the open threads on the diff under review; null outside a round.
 */
export async function reviewRequestOf(
  db: Db,
  task: { readonly id: string; readonly diffSha256: string | null },
  round: number,
): Promise<ReviewRequest | null> {
  if (round === 0 || task.diffSha256 === null) return null;
  const summaries = await db.review.findMany({
    where: { taskId: task.id, verdict: 'request_changes', clearedAt: null, comment: { not: null } },
    orderBy: { createdAt: 'asc' },
    select: { reviewer: true, comment: true },
  });
  return {
    round,
    summaries: summaries.map((s) => ({ author: s.reviewer, body: s.comment ?? '' })),
    threads: await openThreadBriefs(db, task.id, task.diffSha256),
  };
}
