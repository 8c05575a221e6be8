import { AppError } from '../../errors/app-error';
import type { TaskEvent } from './task-events';
import {
  canApply as canApplyTo,
  initialTaskStatus,
  statusAfter,
  type TaskStatus,
} from './task-lifecycle';

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
  status: initialTaskStatus,
  iterationCount: 0,
  diffSha256: null,
  approvedDiffSha256: null,
};

/**
 * Whether `event` may happen to a task in `state` (an illegal one is a bug or a lost race): the
 * lifecycle's transition table decides.
 */
export function canApply(state: TaskState, event: TaskEvent): boolean {
  return canApplyTo(state.status, event.type);
}

/**
 * The one place task state changes. Pure: the store applies it inside the transaction that
 * appends the event, so the row and the log never disagree.
 */
export function reduceTask(state: TaskState, event: TaskEvent): TaskState {
  if (!canApplyTo(state.status, event.type)) {
    throw new AppError(
      'INVALID_STATE',
      `a task that is ${state.status} cannot take '${event.type}'`,
      { details: { status: state.status, event: event.type } },
    );
  }
  const status = statusAfter(state.status, event.type);
  switch (event.type) {
    case 'iteration.started':
      return {
        ...state,
        status,
        iterationCount: Math.max(state.iterationCount, event.index),
        approvedDiffSha256: null,
      };
    case 'task.changes_requested':
      return {
        ...state,
        status,
        iterationCount: Math.max(state.iterationCount, event.iteration),
        approvedDiffSha256: null,
      };
    case 'review.ready':
      return { ...state, status, diffSha256: event.diffSha256, approvedDiffSha256: null };
    case 'task.approved':
      return { ...state, status, approvedDiffSha256: event.sha256 };
    case 'task.rejected':
    case 'task.reopened':
    case 'task.abandoned':
    case 'task.rolled_back':
      return { ...state, status, approvedDiffSha256: null };
    default:
      return status === state.status ? state : { ...state, status };
  }
}
