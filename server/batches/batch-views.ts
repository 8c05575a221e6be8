import type { Prisma } from '../db/client';
import { taskRights } from '../auth/permissions';
import type { Actor } from '../tasks/task-api';
import type {
  BatchConflict,
  BatchCulprit,
  BatchPushView,
  BatchStatus,
  BatchTrial,
  BatchView,
} from './batch-api';

/** The batch row as the views read it. */
export const batchInclude = {
  members: {
    orderBy: { position: 'asc' },
    include: { task: { select: { id: true, title: true, ownerId: true, teamId: true } } },
  },
} as const satisfies Prisma.BatchInclude;

export type BatchRow = Prisma.BatchGetPayload<{ include: typeof batchInclude }>;

/** The rights an actor has on a batch: those it has on every member (dropped ones included). */
export function batchRights(actor: Actor, row: BatchRow): { see: boolean; review: boolean } {
  const rights = row.members.map((member) => taskRights(actor, member.task));
  return {
    see: rights.every((set) => set.has('see')),
    review: rights.every((set) => set.has('review')),
  };
}

export function batchView(row: BatchRow, actor: Actor): BatchView {
  const rights = batchRights(actor, row);
  const status = row.status as BatchStatus;
  const review =
    row.reviewedBy === null || row.reviewedAt === null || row.approvedSha256 === null
      ? null
      : {
          verdict: status === 'rejected' ? ('reject' as const) : ('approve' as const),
          sha256: row.approvedSha256,
          by: row.reviewedBy,
          at: row.reviewedAt.toISOString(),
        };
  return {
    id: row.id,
    status,
    sourceKind: row.sourceKind === 'archive' ? 'archive' : 'git',
    sourceUrl: row.sourceUrl,
    baseCommit: row.baseCommit,
    hostTaskId: row.hostTaskId,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    members: row.members.map((member) => ({
      taskId: member.taskId,
      title: member.task.title,
      position: member.position,
      headCommit: member.headCommit,
      diffSha256: member.diffSha256,
      fixed: (member.fixed ?? []) as string[],
      dropped:
        member.droppedBy === null || member.droppedAt === null
          ? null
          : { by: member.droppedBy, at: member.droppedAt.toISOString() },
    })),
    conflicts: (row.conflicts ?? []) as unknown as BatchConflict[],
    trials: (row.trials ?? []) as unknown as BatchTrial[],
    culprits: (row.culprits ?? []) as unknown as BatchCulprit[],
    error: row.error,
    diff:
      row.diffSha256 === null || row.diff === null
        ? null
        : { sha256: row.diffSha256, bytes: row.diff.length },
    review,
    pushes: (row.pushes ?? []) as unknown as BatchPushView[],
    can: {
      drop: rights.review && (status === 'conflicts' || status === 'failed' || status === 'error'),
      review:
        rights.review && (status === 'passed' || status === 'approved' || status === 'rejected'),
      push: rights.review && status === 'approved' && row.sourceKind === 'git',
    },
  };
}
