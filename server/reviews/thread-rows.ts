import type { Prisma } from '../db/client';
import type { ReviewThreadBrief } from '../engine/loop';
import type { DraftView, ThreadSide, ThreadView } from './review-api';
import { commentAuthorKinds, threadStatuses } from './review-view-schema';

/** What a thread view reads: the row and its comments, oldest first. */
export const threadWithComments = {
  include: { comments: { orderBy: { createdAt: 'asc' } } },
} as const satisfies Prisma.ReviewThreadDefaultArgs;

type ThreadRow = Prisma.ReviewThreadGetPayload<typeof threadWithComments>;
type DraftRow = Prisma.ReviewDraftGetPayload<Record<string, never>>;

const oneOf = <T extends string>(values: readonly T[], value: string, what: string): T => {
  if ((values as readonly string[]).includes(value)) return value as T;
  throw new Error(`a stored ${what} is '${value}', none of ${values.join(', ')}`);
};

export const sideOf = (value: string): ThreadSide => oneOf(['new', 'old'], value, 'thread side');

export function anchorLinesOf(value: Prisma.JsonValue): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

export function threadViewOf(row: ThreadRow): ThreadView {
  return {
    id: row.id,
    status: oneOf(threadStatuses, row.status, 'thread status'),
    path: row.path,
    side: sideOf(row.side),
    startLine: row.startLine,
    endLine: row.endLine,
    lines: anchorLinesOf(row.anchorLines),
    diffSha256: row.diffSha256,
    writtenOn: {
      sha256: row.writtenOnSha256,
      checkpointSha: row.checkpointSha,
      path: row.originalPath,
      startLine: row.originalStartLine,
      endLine: row.originalEndLine,
    },
    outdatedReason: row.outdatedReason,
    author: row.author,
    resolvedBy: row.resolvedBy,
    createdAt: row.createdAt.toISOString(),
    comments: row.comments.map((c) => ({
      id: c.id,
      author: c.author,
      authorKind: oneOf(commentAuthorKinds, c.authorKind, 'comment author kind'),
      body: c.body,
      createdAt: c.createdAt.toISOString(),
    })),
  };
}

/** A thread as fixers and the `task.changes_requested` event carry it. */
export function threadBriefOf(view: ThreadView): ReviewThreadBrief {
  return {
    id: view.id,
    path: view.path,
    side: view.side,
    startLine: view.startLine,
    endLine: view.endLine,
    lines: view.lines,
    comments: view.comments.map((c) => ({ author: c.author, body: c.body })),
  };
}

export function draftViewOf(row: DraftRow): DraftView {
  return {
    id: row.id,
    diffSha256: row.diffSha256,
    threadId: row.threadId,
    path: row.path,
    side: row.side === null ? null : sideOf(row.side),
    startLine: row.startLine,
    endLine: row.endLine,
    body: row.body,
    updatedAt: row.updatedAt.toISOString(),
  };
}
