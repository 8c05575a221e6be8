import type { StepOutcome } from '../local/job-types';

/**
 * How task steps map onto pg-boss jobs. Each job is one step of one task (`data.taskId`) in the
 * queue of the worker holding the task (`task-step.<workerId>`). The queues use pg-boss's `short`
 * policy: at most one job per singleton key waits in `created`, so a wake-up sent while one waits
 * is absorbed by it (send returns null). Two keys per task keep a wake-up from being absorbed by a
 * job that waits for a later time: `now` (wake-ups and continues) and `timer` (a park's deadline).
 * A timer that fires after a wake-up already ran the step runs one more step, which parks again:
 * extra steps are harmless, two at once are not (see `StepExecutor`).
 */
export type Lane = 'now' | 'timer';

/** The job a step's end asks for: `null` for none (done, or parked until woken). */
export type FollowUp =
  { readonly lane: 'now' } | { readonly lane: 'timer'; readonly at: Date } | null;

export interface StepJobData {
  readonly taskId: string;
}

export const STEP_QUEUE_PREFIX = 'task-step.';

export function stepQueue(workerId: string): string {
  return `${STEP_QUEUE_PREFIX}${workerId}`;
}

export function workerOfQueue(queue: string): string | null {
  return queue.startsWith(STEP_QUEUE_PREFIX) ? queue.slice(STEP_QUEUE_PREFIX.length) : null;
}

export function singletonKey(taskId: string, lane: Lane): string {
  return lane === 'now' ? taskId : `${taskId}:timer`;
}

/**
 * Priorities: a job someone's action caused (a new task, hypotheses, a cancel, a review) is taken
 * before a worker's own follow-ups (continue, timers), so people wait less on a busy worker.
 */
export const priorities = { requested: 1, followUp: 0 } as const;

/** `continue` → a job now; `park` until a time → a job then; `park` without one, `done` → none. */
export function followUpOf(outcome: StepOutcome, now: Date): FollowUp {
  switch (outcome.kind) {
    case 'continue':
      return { lane: 'now' };
    case 'park':
      if (outcome.until === null) return null;
      return outcome.until.getTime() <= now.getTime()
        ? { lane: 'now' }
        : { lane: 'timer', at: outcome.until };
    case 'done':
      return null;
  }
}
