import { actorLabel, auditedAs, personOf, type Actor } from '../auth/actor';
import { recordAudit } from '../audit/audit-log';
import type { Tx } from '../db/transaction';
import { AppError } from '../errors/app-error';
import { checkApproval, clearOnApproval } from './approval-rules';
import { anchorOf, diffText } from './diff-anchors';
import { authorKindOf, requireReviewedTask } from './review-access';
import type { NewThreadComment, SubmitReviewInput } from './review-api';
import { defaultMaxReviewRounds, type ReviewServiceDeps } from './review-deps';
import { openThreadBriefs } from './review-state';
import { refuseWhileApproved } from '../tasks/approved-guard';

/**
 * One review: `comment`, `request_changes` or `approve`, bound to the hash the reviewer saw
 * (STALE_DIFF otherwise, and nothing is stored), with its summary, the comments given and the
 * person's stored drafts, all in one transaction with the audit rows and the events.
 *
 * A request for changes sends the task back for one more iteration (a review round, counted
 * apart from maxIterations and capped by SHADOWBOX_MAX_REVIEW_ROUNDS) built on the checkpoint
 * under review; it stays standing until its reviewer approves or dismisses it. An approval is
 * refused while a thread on the diff is open or another reviewer's request stands.
 */
export async function submitReview(
  deps: ReviewServiceDeps,
  { taskId, input, actor }: { taskId: string; input: SubmitReviewInput; actor: Actor },
): Promise<void> {
  const by = actorLabel(actor);
  const person = personOf(actor);
  const maxRounds = deps.maxReviewRounds ?? defaultMaxReviewRounds;
  await deps.store.transact(taskId, async (tx, emit) => {
    const task = await requireReviewedTask(
      tx,
      taskId,
      actor,
      input.verdict === 'comment' ? 'comment' : 'review',
    );
    if (task.status !== 'awaiting_review') {
      refuseWhileApproved(taskId, task.status, 'it takes another review');
      throw new AppError(
        'INVALID_STATE',
        `task ${taskId} is ${task.status}: there is no diff under review`,
      );
    }
    if (task.diffSha256 !== input.sha256) {
      throw new AppError(
        'STALE_DIFF',
        `the diff changed since you loaded it: you reviewed ${input.sha256.slice(0, 12)}…, the current diff is ${String(task.diffSha256).slice(0, 12)}…; reload and review it again`,
        { details: { reviewed: input.sha256, current: task.diffSha256 } },
      );
    }
    const drafts =
      person === null
        ? []
        : await tx.reviewDraft.findMany({
            where: { taskId, userId: person.id },
            orderBy: { createdAt: 'asc' },
          });
    const staleDrafts = drafts.filter((d) => d.diffSha256 !== input.sha256);
    if (staleDrafts.length > 0) {
      throw new AppError(
        'STALE_DIFF',
        `${staleDrafts.length} of your draft comments ${staleDrafts.length === 1 ? 'was' : 'were'} written on an older diff: delete or rewrite ${staleDrafts.length === 1 ? 'it' : 'them'} on the current one, then submit`,
        { details: { drafts: staleDrafts.map((d) => d.id) } },
      );
    }
    const diff = await diffText(tx, input.sha256);
    const newThreads: NewThreadComment[] = [
      ...(input.comments ?? []),
      ...drafts.flatMap((d) =>
        d.threadId === null && d.path !== null && d.side !== null
          ? [
              {
                path: d.path,
                side: d.side === 'old' ? ('old' as const) : ('new' as const),
                startLine: d.startLine ?? 0,
                endLine: d.endLine ?? 0,
                body: d.body,
              },
            ]
          : [],
      ),
    ];
    const anchors = newThreads.map((c) => anchorOf(diff, c));
    const replies = drafts.flatMap((d) =>
      d.threadId === null ? [] : [{ threadId: d.threadId, body: d.body }],
    );
    const summary = input.summary?.trim() === '' ? undefined : input.summary?.trim();
    if (input.verdict === 'approve') {
      if (newThreads.length > 0) {
        throw new AppError(
          'OPEN_THREADS',
          `an approval cannot open threads (${newThreads.length} new): send them as a comment or a request for changes`,
        );
      }
      await checkApproval(tx, taskId, input.sha256, actor, deps);
    } else if (summary === undefined && newThreads.length === 0 && replies.length === 0) {
      throw new AppError(
        'INVALID_ARGUMENT',
        input.verdict === 'request_changes'
          ? 'say what to change: a request for changes needs a summary or a comment on the diff'
          : 'a comment needs a summary or a comment on the diff',
      );
    }
    if (input.verdict === 'request_changes' && task.reviewRounds >= maxRounds) {
      throw new AppError(
        'INVALID_STATE',
        `task ${taskId} has had ${task.reviewRounds} review rounds, the most this server allows (SHADOWBOX_MAX_REVIEW_ROUNDS=${maxRounds}): approve or reject it`,
      );
    }

    const review = await tx.review.create({
      data: {
        taskId,
        verdict: input.verdict,
        diffSha256: input.sha256,
        reviewer: by,
        reviewerId: person?.id ?? null,
        comment: summary ?? null,
      },
      select: { id: true },
    });
    const authorKind = authorKindOf(actor);
    for (const [i, comment] of newThreads.entries()) {
      const thread = await tx.reviewThread.create({
        data: {
          taskId,
          writtenOnSha256: input.sha256,
          checkpointSha: task.checkpointSha ?? '',
          diffSha256: input.sha256,
          path: comment.path,
          side: comment.side,
          startLine: comment.startLine,
          endLine: comment.endLine,
          originalPath: comment.path,
          originalStartLine: comment.startLine,
          originalEndLine: comment.endLine,
          anchorLines: [...(anchors[i] ?? [])],
          author: by,
          authorId: person?.id ?? null,
          comments: {
            create: {
              reviewId: review.id,
              authorKind,
              author: by,
              authorId: person?.id ?? null,
              body: comment.body,
            },
          },
        },
        select: { id: true },
      });
      await auditComment(tx, actor, taskId, thread.id);
    }
    for (const reply of replies) {
      await postReply(tx, taskId, reply.threadId, {
        reviewId: review.id,
        authorKind,
        author: by,
        authorId: person?.id ?? null,
        body: reply.body,
      });
      await auditComment(tx, actor, taskId, reply.threadId);
    }
    if (person !== null) await tx.reviewDraft.deleteMany({ where: { taskId, userId: person.id } });
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: `task.${input.verdict}`,
      target: taskId,
      details: { sha256: input.sha256, threads: newThreads.length, replies: replies.length },
    });
    await emit({
      type: 'review.submitted',
      verdict: input.verdict,
      sha256: input.sha256,
      by,
      threads: newThreads.length,
      replies: replies.length,
    });
    if (input.verdict === 'approve') {
      await clearOnApproval(tx, taskId, actor, deps.clock.now());
      await emit({ type: 'task.approved', sha256: input.sha256, by });
    } else if (input.verdict === 'request_changes') {
      const round = task.reviewRounds + 1;
      const iteration = task.iterationCount + 1;
      // The round's iteration waits for hypotheses built on the checkpoint under review.
      await tx.iteration.create({
        data: { taskId, index: iteration, status: 'waiting', reviewRound: round },
      });
      await emit(
        {
          type: 'task.changes_requested',
          sha256: input.sha256,
          by,
          round,
          iteration,
          summary: summary ?? null,
          threads: await openThreadBriefs(tx, taskId, input.sha256),
        },
        { reviewRounds: round },
      );
    }
  });
  if (input.verdict === 'request_changes') await deps.scheduler.schedule(taskId);
}

/** One comment in a thread of the task (NOT_FOUND for a thread of another task). */
export async function postReply(
  tx: Tx,
  taskId: string,
  threadId: string,
  comment: {
    reviewId?: string;
    authorKind: 'person' | 'agent' | 'fixer';
    author: string;
    authorId: string | null;
    body: string;
  },
): Promise<void> {
  const thread = await tx.reviewThread.findFirst({
    where: { id: threadId, taskId },
    select: { id: true },
  });
  if (thread === null) throw new AppError('NOT_FOUND', `no thread ${threadId} in task ${taskId}`);
  await tx.reviewComment.create({ data: { threadId, ...comment } });
}

function auditComment(tx: Tx, actor: Actor, taskId: string, threadId: string) {
  return recordAudit(tx, {
    ...auditedAs(actor),
    action: 'review.comment',
    target: taskId,
    details: { threadId },
  });
}
