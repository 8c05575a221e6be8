import { actorLabel, auditedAs, personOf, type Actor } from '../auth/actor';
import { recordAudit } from '../audit/audit-log';
import { AppError } from '../errors/app-error';
import { authorKindOf, requireReviewedTask } from './review-access';
import type { ThreadView } from './review-api';
import type { ReviewServiceDeps } from './review-deps';
import { postReply } from './submit-review';
import { threadViewOf, threadWithComments } from './thread-rows';

export const maxCommentChars = 20_000;

function checkBody(body: string): string {
  const text = body.trim();
  if (text === '') throw new AppError('INVALID_ARGUMENT', 'a comment may not be empty');
  if (text.length > maxCommentChars) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `a comment may hold at most ${maxCommentChars} characters, this one has ${text.length}`,
    );
  }
  return text;
}

async function loadThread(deps: Pick<ReviewServiceDeps, 'db'>, threadId: string) {
  const row = await deps.db.reviewThread.findUnique({
    where: { id: threadId },
    ...threadWithComments,
  });
  if (row === null) throw new AppError('NOT_FOUND', `no thread ${threadId}`);
  return threadViewOf(row);
}

/**
 * A reply in a thread, posted on its own (people, and agents through their token: what they did
 * about it). Anyone who may comment on the task may reply; an outdated thread still takes replies.
 */
export async function replyToThread(
  deps: ReviewServiceDeps,
  {
    taskId,
    threadId,
    body,
    actor,
  }: { taskId: string; threadId: string; body: string; actor: Actor },
): Promise<ThreadView> {
  const text = checkBody(body);
  const by = actorLabel(actor);
  await deps.store.transact(taskId, async (tx, emit) => {
    await requireReviewedTask(tx, taskId, actor, 'comment');
    await postReply(tx, taskId, threadId, {
      authorKind: authorKindOf(actor),
      author: by,
      authorId: personOf(actor)?.id ?? null,
      body: text,
    });
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: 'review.reply',
      target: taskId,
      details: { threadId },
    });
    await emit({ type: 'review.thread', threadId, action: 'replied', by });
  });
  return loadThread(deps, threadId);
}

/**
 * Resolves (`open → resolved`) or reopens (`resolved → open`) a thread. Reviewers and admins may,
 * and so may the person who opened it; an agent's token never may (an agent answers threads, a
 * person decides they are answered).
 */
export async function setThreadStatus(
  deps: ReviewServiceDeps,
  {
    taskId,
    threadId,
    action,
    actor,
  }: { taskId: string; threadId: string; action: 'resolve' | 'reopen'; actor: Actor },
): Promise<ThreadView> {
  const by = actorLabel(actor);
  const [from, to] =
    action === 'resolve' ? (['open', 'resolved'] as const) : (['resolved', 'open'] as const);
  await deps.store.transact(taskId, async (tx, emit) => {
    const task = await requireReviewedTask(tx, taskId, actor, 'see');
    const thread = await tx.reviewThread.findFirst({
      where: { id: threadId, taskId },
      select: { status: true, authorId: true },
    });
    if (thread === null) throw new AppError('NOT_FOUND', `no thread ${threadId} in task ${taskId}`);
    const person = personOf(actor);
    const ownThread =
      actor.kind === 'user' && thread.authorId !== null && thread.authorId === person?.id;
    if (!task.rights.has('review') && !ownThread) {
      throw new AppError(
        'FORBIDDEN',
        actor.kind === 'token' && !actor.scopes.includes('reviewer')
          ? `an agent cannot ${action} a thread: it replies, and a reviewer ${action === 'resolve' ? 'resolves' : 'reopens'} it`
          : `${action === 'resolve' ? 'resolving' : 'reopening'} a thread needs a reviewer, an admin or the person who opened it`,
        { details: { taskId, threadId } },
      );
    }
    if (thread.status !== from) {
      throw new AppError(
        'INVALID_STATE',
        `thread ${threadId} is ${thread.status}: only ${from === 'open' ? 'an open' : 'a resolved'} thread can be ${action === 'resolve' ? 'resolved' : 'reopened'}`,
      );
    }
    await tx.reviewThread.update({
      where: { id: threadId },
      data: { status: to, resolvedBy: to === 'resolved' ? by : null },
    });
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: `review.${action}`,
      target: taskId,
      details: { threadId },
    });
    await emit({
      type: 'review.thread',
      threadId,
      action: action === 'resolve' ? 'resolved' : 'reopened',
      by,
    });
  });
  return loadThread(deps, threadId);
}

/** Every thread of the task, open and resolved first by place, then the outdated ones. */
export async function listThreads(
  deps: Pick<ReviewServiceDeps, 'db'>,
  { taskId, actor }: { taskId: string; actor: Actor },
) {
  const task = await requireReviewedTask(deps.db, taskId, actor, 'see');
  const rows = await deps.db.reviewThread.findMany({
    where: { taskId },
    orderBy: [{ path: 'asc' }, { startLine: 'asc' }, { createdAt: 'asc' }],
    ...threadWithComments,
  });
  const views = rows.map(threadViewOf);
  return {
    diffSha256: task.diffSha256,
    threads: [
      ...views.filter((t) => t.status !== 'outdated'),
      ...views.filter((t) => t.status === 'outdated'),
    ],
  };
}
