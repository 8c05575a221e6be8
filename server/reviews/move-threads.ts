import type { Tx } from '../db/transaction';
import type { ThreadReply } from '../engine/loop';
import { parseDiff, reanchor } from '../engine/review';
import { anchorLinesOf, sideOf } from './thread-rows';

/**
 * A new diff is up for review: each open or resolved thread moves to the same code in it (the
 * engine's `reanchor`: exact text near the old place, then anywhere in the file; the nearest of
 * several wins), keeping its status; a thread whose code is gone becomes outdated, still
 * readable on the diff it was last in. Runs inside the transaction that stores the new diff.
 */
export async function moveThreads(tx: Tx, taskId: string, sha256: string, diff: string) {
  const threads = await tx.reviewThread.findMany({
    where: { taskId, status: { in: ['open', 'resolved'] }, NOT: { diffSha256: sha256 } },
  });
  if (threads.length === 0) return { moved: 0, outdated: 0 };
  const files = parseDiff(diff);
  let outdated = 0;
  for (const thread of threads) {
    const result = reanchor(
      {
        path: thread.path,
        side: sideOf(thread.side),
        startLine: thread.startLine,
        endLine: thread.endLine,
        lines: anchorLinesOf(thread.anchorLines),
      },
      files,
    );
    if (result.kind === 'moved') {
      const { path, startLine, endLine } = result.anchor;
      await tx.reviewThread.update({
        where: { id: thread.id },
        data: { diffSha256: sha256, path, startLine, endLine },
      });
    } else {
      outdated += 1;
      await tx.reviewThread.update({
        where: { id: thread.id },
        data: { status: 'outdated', outdatedReason: result.reason },
      });
    }
  }
  return { moved: threads.length - outdated, outdated };
}

/**
 * A fixer's answers to a review round's threads, posted in them as its comments; replies to
 * threads that are not the task's open ones are dropped (a model may name any id).
 */
export async function postFixerReplies(
  tx: Tx,
  taskId: string,
  replies: readonly ThreadReply[],
  author: string,
): Promise<number> {
  const open = await tx.reviewThread.findMany({
    where: { taskId, id: { in: replies.map((r) => r.threadId) }, status: 'open' },
    select: { id: true },
  });
  const ids = new Set(open.map((t) => t.id));
  let posted = 0;
  for (const reply of replies) {
    if (!ids.has(reply.threadId)) continue;
    await tx.reviewComment.create({
      data: { threadId: reply.threadId, authorKind: 'fixer', author, body: reply.body },
    });
    posted += 1;
  }
  return posted;
}
