import { actorLabel, personOf, type Actor } from '../auth/actor';
import type { Tx } from '../db/transaction';
import { AppError } from '../errors/app-error';
import { isAdmin } from './review-access';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * The rules an approval of `sha256` cannot skip, checked inside the approving transaction (Gerrit
 * and GitHub are the anchors): no thread on the diff is open; no other reviewer's request for
 * changes stands (only its reviewer, or an admin, clears one); with a second reviewer required,
 * nobody approves a diff whose winning hypothesis they submitted.
 */
export async function checkApproval(
  tx: Tx,
  taskId: string,
  sha256: string,
  actor: Actor,
  options: { readonly requireSecondReviewer?: boolean | undefined },
): Promise<void> {
  const open = await tx.reviewThread.findMany({
    where: { taskId, diffSha256: sha256, status: 'open' },
    orderBy: [{ path: 'asc' }, { startLine: 'asc' }],
    select: { id: true, path: true, side: true, startLine: true, endLine: true },
  });
  if (open.length > 0) {
    const where = open
      .slice(0, 5)
      .map(
        (t) =>
          `${t.path}:${t.startLine === t.endLine ? t.startLine : `${t.startLine}-${t.endLine}`} (${t.side})`,
      );
    throw new AppError(
      'OPEN_THREADS',
      `${plural(open.length, 'thread')} on this diff ${open.length === 1 ? 'is' : 'are'} still open (${where.join(', ')}${open.length > 5 ? ', …' : ''}): resolve ${open.length === 1 ? 'it' : 'them'} before approving`,
      { details: { open: open.map((t) => t.id) } },
    );
  }
  const person = personOf(actor);
  const standing = await standingRequests(tx, taskId);
  const others = standing.filter((r) => r.reviewerId === null || r.reviewerId !== person?.id);
  if (others.length > 0 && !isAdmin(actor)) {
    const who = [...new Set(others.map((r) => r.reviewer))].join(', ');
    throw new AppError(
      'CHANGES_REQUESTED',
      `${who} requested changes: only ${others.length === 1 ? 'that reviewer' : 'those reviewers'} (by approving or dismissing it with a reason) or an admin can clear that`,
      { details: { reviews: others.map((r) => r.id) } },
    );
  }
  if (options.requireSecondReviewer === true && person !== null) {
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
}

/** Requests for changes nobody has cleared yet, oldest first. */
export function standingRequests(tx: Tx, taskId: string) {
  return tx.review.findMany({
    where: { taskId, verdict: 'request_changes', clearedAt: null },
    orderBy: { createdAt: 'asc' },
    select: { id: true, reviewer: true, reviewerId: true },
  });
}

/**
 * An approval clears the approver's own standing requests for changes (an admin's, everyone's):
 * the rules above already refused any other.
 */
export async function clearOnApproval(tx: Tx, taskId: string, actor: Actor, at: Date) {
  const person = personOf(actor);
  await tx.review.updateMany({
    where: {
      taskId,
      verdict: 'request_changes',
      clearedAt: null,
      ...(isAdmin(actor) ? {} : { reviewerId: person?.id ?? '' }),
    },
    data: { clearedAt: at, clearedBy: actorLabel(actor), clearedHow: 'approved' },
  });
}
