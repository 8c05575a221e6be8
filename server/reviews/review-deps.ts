import type { Db } from '../db/client';
import type { Tx } from '../db/transaction';
import type { Clock } from '../engine/ports';
import type { TaskChanges, TaskEvent } from '../engine/loop';

/**
 * Runs `work` in one transaction with the events it emits (status changes through the task
 * reducer), then publishes them: the task store's `transact`, named here so this folder needs
 * nothing from the task services.
 */
export interface TaskTransactor {
  transact<T>(
    taskId: string,
    work: (tx: Tx, emit: (event: TaskEvent, changes?: TaskChanges) => Promise<void>) => Promise<T>,
  ): Promise<T>;
}

export interface ReviewServiceDeps {
  readonly db: Db;
  readonly store: TaskTransactor;
  readonly clock: Clock;
  /** Makes the task's next step due (a review round's iteration starts). */
  readonly scheduler: { schedule(taskId: string): Promise<void> };
  /** SHADOWBOX_REQUIRE_SECOND_REVIEWER: nobody approves a diff they (or their tokens) won. */
  readonly requireSecondReviewer?: boolean | undefined;
  /** SHADOWBOX_MAX_REVIEW_ROUNDS (default 5). */
  readonly maxReviewRounds?: number | undefined;
}

export const defaultMaxReviewRounds = 5;
