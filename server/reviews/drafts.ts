import type { Actor } from '../auth/actor';
import { AppError } from '../errors/app-error';
import { anchorOf, diffText } from './diff-anchors';
import { requirePerson, requireReviewedTask } from './review-access';
import type { DraftInput, DraftView } from './review-api';
import type { ReviewServiceDeps } from './review-deps';
import { maxCommentChars } from './thread-actions';
import { draftViewOf } from './thread-rows';

/** A person may keep this many drafts on one task. */
export const maxDraftsPerTask = 200;

/** The caller's drafts on the task, oldest first (only theirs: drafts are private until sent). */
export async function listDrafts(
  deps: Pick<ReviewServiceDeps, 'db'>,
  { taskId, actor }: { taskId: string; actor: Actor },
): Promise<DraftView[]> {
  const person = requirePerson(actor, 'drafts');
  await requireReviewedTask(deps.db, taskId, actor, 'comment');
  const rows = await deps.db.reviewDraft.findMany({
    where: { taskId, userId: person.id },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map(draftViewOf);
}

/**
 * Stores (or rewrites, given its id) one of the caller's drafts: a new thread's comment on lines
 * the diff under review shows, or a reply to one of the task's threads. It is sent with the
 * person's next review.
 */
export async function saveDraft(
  deps: ReviewServiceDeps,
  {
    taskId,
    draftId,
    input,
    actor,
  }: { taskId: string; draftId: string | null; input: DraftInput; actor: Actor },
): Promise<DraftView> {
  const person = requirePerson(actor, 'drafts');
  const body = input.body.trim();
  if (body === '') throw new AppError('INVALID_ARGUMENT', 'a draft comment may not be empty');
  if (body.length > maxCommentChars) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `a comment may hold at most ${maxCommentChars} characters`,
    );
  }
  return deps.store.transact(taskId, async (tx) => {
    const task = await requireReviewedTask(tx, taskId, actor, 'comment');
    if (task.diffSha256 === null) {
      throw new AppError('INVALID_STATE', `task ${taskId} has no diff to comment on yet`);
    }
    if (task.diffSha256 !== input.sha256) {
      throw new AppError(
        'STALE_DIFF',
        `the diff changed since you loaded it (the current one is ${task.diffSha256.slice(0, 12)}…): reload it and comment on that`,
        { details: { reviewed: input.sha256, current: task.diffSha256 } },
      );
    }
    let place: {
      threadId: string | null;
      path: string | null;
      side: string | null;
      startLine: number | null;
      endLine: number | null;
    };
    if ('threadId' in input) {
      const thread = await tx.reviewThread.findFirst({
        where: { id: input.threadId, taskId },
        select: { id: true },
      });
      if (thread === null) {
        throw new AppError('NOT_FOUND', `no thread ${input.threadId} in task ${taskId}`);
      }
      place = { threadId: thread.id, path: null, side: null, startLine: null, endLine: null };
    } else {
      anchorOf(await diffText(tx, input.sha256), input);
      const { path, side, startLine, endLine } = input;
      place = { threadId: null, path, side, startLine, endLine };
    }
    const data = { diffSha256: input.sha256, body, ...place };
    if (draftId !== null) {
      const updated = await tx.reviewDraft.updateMany({
        where: { id: draftId, taskId, userId: person.id },
        data,
      });
      if (updated.count !== 1) throw new AppError('NOT_FOUND', `no draft ${draftId} of yours`);
      const row = await tx.reviewDraft.findUniqueOrThrow({ where: { id: draftId } });
      return draftViewOf(row);
    }
    const count = await tx.reviewDraft.count({ where: { taskId, userId: person.id } });
    if (count >= maxDraftsPerTask) {
      throw new AppError(
        'CONFLICT',
        `you have ${count} draft comments on this task, the most there may be: submit your review first`,
      );
    }
    return draftViewOf(
      await tx.reviewDraft.create({ data: { taskId, userId: person.id, ...data } }),
    );
  });
}

export async function deleteDraft(
  deps: ReviewServiceDeps,
  { taskId, draftId, actor }: { taskId: string; draftId: string; actor: Actor },
): Promise<void> {
  const person = requirePerson(actor, 'drafts');
  await requireReviewedTask(deps.db, taskId, actor, 'comment');
  const deleted = await deps.db.reviewDraft.deleteMany({
    where: { id: draftId, taskId, userId: person.id },
  });
  if (deleted.count !== 1) throw new AppError('NOT_FOUND', `no draft ${draftId} of yours`);
}
