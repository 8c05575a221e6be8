import { acceptsWork, canApply } from '@/server/engine/lifecycle';
import type { TaskStatus } from '../trpc/router-types';

/** What the server says the signed-in person may do to the task now (TaskView['can']). */
export interface TaskCan {
  readonly submit: boolean;
  readonly cancel: boolean;
  readonly rollback: boolean;
  readonly review: boolean;
  /** Write in the review threads: line comments, replies (drafts are this person's own). */
  readonly comment: boolean;
  readonly reopen: boolean;
}

/** Which controls the page shows (`shown`), and which of those work now (`enabled`). */
export interface TaskActions {
  readonly cancel: { readonly shown: boolean; readonly enabled: boolean };
  readonly rollback: { readonly shown: boolean; readonly enabled: boolean };
  readonly submit: boolean;
  readonly review: boolean;
  /** Write line comments and replies on the diff (the server refuses them on a stale one). */
  readonly comment: boolean;
  readonly reopen: boolean;
  /** The task is under review and this person may not approve or reject it. */
  readonly reviewRefused: boolean;
}

/**
 * The page's controls from the server's `can` (computed at the stored status) and the live
 * status of the stream (which may be ahead of the stored view until it is refetched): a control
 * shows only when the person may use it, and works only while the live status allows it.
 *
 * `can.submit` and `can.rollback` hold while the task is active or under review, `can.cancel`
 * while it is active; the server checks again either way.
 */
export function taskActions(can: TaskCan, stored: TaskStatus, live: TaskStatus): TaskActions {
  const running = canApply(live, 'task.cancelled');
  const underReview = canApply(live, 'task.abandoned');
  return {
    cancel: { shown: can.cancel, enabled: can.cancel && running },
    rollback: { shown: can.rollback, enabled: can.rollback && (running || underReview) },
    submit: can.submit && acceptsWork(live),
    review: can.review && live === 'awaiting_review',
    comment: can.comment,
    reopen: can.reopen && live === 'approved',
    reviewRefused: !can.review && stored === 'awaiting_review' && live === 'awaiting_review',
  };
}
