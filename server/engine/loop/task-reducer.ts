import { AppError } from '../../errors/app-error';
import type { TaskEvent } from './task-events';
import { activeStatuses, type TaskStatus } from './task-status';

/** The part of a task that events change. */
export interface TaskState {
  readonly status: TaskStatus;
  /** Iterations started so far. */
  readonly iterationCount: number;
  /** The diff under review, when there is one. */
  readonly diffSha256: string | null;
  /** The hash a reviewer approved; any later run clears it. */
  readonly approvedDiffSha256: string | null;
}

export const initialTaskState: TaskState = {
  status: 'queued',
  iterationCount: 0,
  diffSha256: null,
  approvedDiffSha256: null,
};

type From = readonly TaskStatus[] | 'active';

/** Which statuses each status-changing event may leave from, and where it goes. */
const transitions: Partial<Record<TaskEvent['type'], { from: From; to: TaskStatus | null }>> = {
  'task.preparing': { from: ['queued'], to: 'preparing' },
  'setup.started': { from: ['preparing', 'setup'], to: 'setup' },
  'baseline.started': { from: ['preparing', 'setup', 'baseline'], to: 'baseline' },
  // A new iteration may reopen a task under review or approved: the approval no longer holds.
  'iteration.started': {
    from: ['baseline', 'iterating', 'awaiting_hypotheses', 'awaiting_review', 'approved'],
    to: 'iterating',
  },
  'iteration.awaiting_hypotheses': { from: ['iterating'], to: 'awaiting_hypotheses' },
  'iteration.running': { from: ['iterating', 'awaiting_hypotheses'], to: 'iterating' },
  'review.ready': { from: ['iterating'], to: 'awaiting_review' },
  'task.approved': { from: ['awaiting_review'], to: 'approved' },
  'task.rejected': { from: ['awaiting_review', 'approved'], to: 'rejected' },
  'task.failed': { from: 'active', to: 'failed' },
  'task.cancelled': { from: 'active', to: 'cancelled' },
  // Rolling back a fix under review (or approved) gives it up.
  'task.abandoned': { from: ['awaiting_review', 'approved'], to: 'cancelled' },
  'task.interrupted': { from: 'active', to: 'interrupted' },
  // Resuming after a restart keeps the status; it only has to be one that was running.
  'task.resumed': { from: 'active', to: null },
};

function allowed(from: From, status: TaskStatus): boolean {
  return from === 'active' ? activeStatuses.has(status) : from.includes(status);
}

/** Whether `event` may happen to a task in `state` (an illegal one is a bug or a lost race). */
export function canApply(state: TaskState, event: TaskEvent): boolean {
  const rule = transitions[event.type];
  return rule === undefined || allowed(rule.from, state.status);
}

/**
 * The one place task state changes. Pure: the store applies it inside the transaction that
 * appends the event, so the row and the log never disagree.
 */
export function reduceTask(state: TaskState, event: TaskEvent): TaskState {
  const rule = transitions[event.type];
  if (rule !== undefined && !allowed(rule.from, state.status)) {
    throw new AppError(
      'INVALID_STATE',
      `a task that is ${state.status} cannot take '${event.type}'`,
      { details: { status: state.status, event: event.type } },
    );
  }
  const status = rule?.to ?? state.status;
  switch (event.type) {
    case 'iteration.started':
      return {
        ...state,
        status,
        iterationCount: Math.max(state.iterationCount, event.index),
        approvedDiffSha256: null,
      };
    case 'review.ready':
      return { ...state, status, diffSha256: event.diffSha256, approvedDiffSha256: null };
    case 'task.approved':
      return { ...state, status, approvedDiffSha256: event.sha256 };
    case 'task.rejected':
    case 'task.abandoned':
    case 'task.rolled_back':
      return { ...state, status, approvedDiffSha256: null };
    default:
      return status === state.status ? state : { ...state, status };
  }
}
