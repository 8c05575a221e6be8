import { AppError } from '../errors/app-error';
import type { TaskStatus } from '../engine/lifecycle';
import { refuseWhileApproved } from './approved-guard';

/*
 * Which hypothesis a reviewer may promote, and when: pure, so each refusal is tested as worded.
 *
 * Only a task awaiting review: its iterations' runs are done and a diff waits for a verdict. A
 * running task's checkpoint is the loop's to move; an approved one is reopened first (its
 * approval binds the diff it approved); a final one has nothing under review.
 *
 * Only a passing runner-up of the newest finished iteration: it ran on the checkpoint the
 * winner ran on, and the judge found it fixed what it set out to and broke nothing. A
 * disqualified run cannot be: the judge found it broke a test that passed before, lost tests,
 * edited the tests, or left results that could not be read or were forged; putting it up would
 * ask a reviewer to approve a change its own evidence says is not a fix. An errored run has no
 * evidence at all.
 */

export interface PromotionTask {
  readonly id: string;
  readonly status: TaskStatus;
}

export interface PromotionIteration {
  readonly index: number;
  readonly winner: string | null;
}

export interface PromotionCandidate {
  readonly name: string;
  /** pending | winner | passed | failed | error (Hypothesis.verdict). */
  readonly verdict: string;
  /** The hypothesis' own error (a fixer's answer that never ran) or its run's. */
  readonly error: string | null;
  /** Why its run cannot win; null for a pass. */
  readonly disqualified: string | null;
}

/** Refuses a task that is not awaiting review, saying what it is instead. */
export function checkPromotableTask(task: PromotionTask): void {
  refuseWhileApproved(task.id, task.status, 'another hypothesis can be promoted');
  if (task.status !== 'awaiting_review') {
    throw new AppError(
      'INVALID_STATE',
      `task ${task.id} is ${task.status}: only a task awaiting review can have a runner-up promoted`,
    );
  }
}

/**
 * The winner the candidate would replace, or a refusal naming why it may not: it is not of the
 * newest finished iteration (NOT_FOUND), it already is the diff under review, it errored, was
 * disqualified, or did not pass (INVALID_STATE).
 */
export function checkPromotableHypothesis(
  taskId: string,
  iteration: PromotionIteration | null,
  name: string,
  candidate: PromotionCandidate | null,
): string {
  if (iteration === null) {
    throw new AppError('NOT_FOUND', `task ${taskId} has no finished iteration`);
  }
  if (candidate === null) {
    throw new AppError(
      'NOT_FOUND',
      `no hypothesis ${JSON.stringify(name)} in iteration ${iteration.index} of task ${taskId} (only the newest iteration's hypotheses can be promoted)`,
    );
  }
  const winner = iteration.winner;
  if (winner === null) {
    throw new AppError(
      'INVALID_STATE',
      `iteration ${iteration.index} of task ${taskId} has no winner under review`,
    );
  }
  if (candidate.name === winner) {
    throw new AppError(
      'INVALID_STATE',
      `cannot promote ${candidate.name}: it is already the diff under review`,
    );
  }
  if (candidate.verdict === 'error' || candidate.error !== null) {
    throw new AppError(
      'INVALID_STATE',
      `cannot promote ${candidate.name}: its run failed: ${candidate.error ?? 'an error'}`,
    );
  }
  if (candidate.disqualified !== null) {
    throw new AppError(
      'INVALID_STATE',
      `cannot promote ${candidate.name}: it is disqualified: ${candidate.disqualified}`,
    );
  }
  if (candidate.verdict !== 'passed') {
    throw new AppError(
      'INVALID_STATE',
      `cannot promote ${candidate.name}: it did not pass (${candidate.verdict})`,
    );
  }
  return winner;
}
