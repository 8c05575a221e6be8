export type JobState = 'queued' | 'running' | 'parked' | 'done';

/** How a step of the task loop ended: defined by the loop, which returns it. */
export type { StepOutcome } from '../../engine/loop';

/** A job this worker now holds; pass `id` back to renew/finish/fail/release. */
export interface ClaimedJob {
  readonly id: string;
  readonly taskId: string;
  /** Steps that threw since the job's last step that ended normally (not counting this one). */
  readonly attempts: number;
  readonly lastError: string | null;
  readonly lockedUntil: Date;
  /** True when the job was taken over from a worker whose lease had expired. */
  readonly reclaimed: boolean;
}

export interface JobView {
  readonly id: string;
  readonly taskId: string;
  readonly state: JobState;
  /** When the job is (or becomes) due; null for a park without a deadline. */
  readonly runAt: Date | null;
  readonly wakeRequested: boolean;
  readonly attempts: number;
  readonly lockedBy: string | null;
  readonly lockedUntil: Date | null;
  readonly lastError: string | null;
}

/**
 * What `enqueue` did: `created` a job, `woke` a parked/done one (or moved a queued one's `runAt`
 * earlier), asked the running step's worker to re-queue it (`wake-requested`), or nothing
 * (`unchanged`: already queued and due no later).
 */
export type EnqueueResult = 'created' | 'woken' | 'wake-requested' | 'unchanged';

export type FailDisposition = { readonly retryAt: Date } | { readonly giveUp: true };

export interface JobQueueOptions {
  /** The queue's notion of "now" (tests pass a fake one). */
  clock?: () => Date;
}

/** The `runAt` of a parked job without a deadline: never due by time, only by a wake-up. */
export const PARKED_UNTIL_WOKEN = new Date('9999-12-31T00:00:00.000Z');
