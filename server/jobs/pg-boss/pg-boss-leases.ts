import type { StepOutcome } from '../../engine/loop';
import type { Lease, LeaseBackend } from '../lease-backend';
import { followUpOf, priorities, type FollowUp, type StepJobData } from './step-jobs';

/** A fetched pg-boss job of a task's step, as the executor's lease. */
export interface StepLease extends Lease {
  /** The pg-boss job id. */
  readonly id: string;
}

/** The fields of a fetched pg-boss job a lease is made of. */
export interface StepJob {
  readonly id: string;
  readonly data: StepJobData;
  /** Earlier failed runs of this job (pg-boss counts them). */
  readonly retryCount: number;
}

export function leaseOf(job: StepJob): StepLease {
  return { id: job.id, taskId: job.data.taskId, attempts: job.retryCount, lastError: null };
}

export interface PgBossLeasesDeps {
  readonly workerId: string;
  /** The task's `workerId`; undefined when there is no such task. */
  holderOf(taskId: string): Promise<string | null | undefined>;
  /**
   * Makes the task's failed step, waiting in this worker's queue for pg-boss's retry, due now;
   * false when none waits. The retry keeps its count of attempts.
   */
  hurryRetry(taskId: string): Promise<boolean>;
  /**
   * Fails the job for pg-boss to retry after its backoff (pg-boss's `fail`). Done by the executor
   * while it still holds the task, rather than by throwing: pg-boss records a thrown job's
   * failure only after the handler has let go, and a wake fetched in between would find neither
   * a running step nor a waiting retry, and start a second chain of attempts.
   */
  failForRetry(lease: StepLease, error: unknown): Promise<void>;
  /** Sends the task a job on the queue of the worker holding it (placing it first if need be). */
  dispatch(taskId: string, followUp: NonNullable<FollowUp>, priority: number): Promise<void>;
  /** Calls `lost` for a job that stops being active (see `JobWatch`). */
  readonly watch: {
    watch(jobId: string, lost: (reason: Error) => void): void;
    unwatch(jobId: string): void;
  };
  readonly clock: () => Date;
  /** After a failed give-up, when to try it again (default 30 s). */
  readonly giveUpRetryMs?: number;
}

/**
 * pg-boss as a lease backend (PostgreSQL, web and workers). A fetched job is the lease; pg-boss
 * completes it once the executor returns (a no-op for a job already failed through
 * `failForRetry`), and fails it for a retry when the executor throws. What comes next is a job
 * sent to the queue of the worker holding the task (`followUpOf`): the queue's singleton keys
 * absorb a wake sent while one waits, and the executor absorbs one that arrives mid-step.
 */
export class PgBossLeases implements LeaseBackend<StepLease> {
  constructor(private readonly deps: PgBossLeasesDeps) {}

  /**
   * Runs nothing for a task another worker now holds (moved after this one was thought dead: the
   * job is sent on to the holder), for a deleted task, or while the task's failed step waits out
   * its backoff here: pg-boss keeps that retry in `retry`, not `created`, so the queue's policy
   * does not absorb the wake, which instead brings the retry forward.
   */
  async admit(lease: StepLease): Promise<boolean> {
    if (await this.deps.hurryRetry(lease.taskId)) return false;
    const holder = await this.deps.holderOf(lease.taskId);
    if (holder === undefined) return false;
    if (holder !== this.deps.workerId) {
      await this.deps.dispatch(lease.taskId, { lane: 'now' }, priorities.requested);
      return false;
    }
    return true;
  }

  hold(lease: StepLease, lost: (reason: Error) => void): () => void {
    this.deps.watch.watch(lease.id, lost);
    return () => this.deps.watch.unwatch(lease.id);
  }

  async endFinished(lease: StepLease, outcome: StepOutcome): Promise<boolean> {
    const next = followUpOf(outcome, this.deps.clock());
    if (next !== null) await this.deps.dispatch(lease.taskId, next, priorities.followUp);
    return true;
  }

  async endFailed(lease: StepLease, error: unknown): Promise<boolean> {
    await this.deps.failForRetry(lease, error);
    return true;
  }

  endGivenUp(): Promise<boolean> {
    return Promise.resolve(true);
  }

  /** A job for later, which the executor turns into the give-up (it keeps the task's count). */
  async endGiveUpFailed(lease: StepLease): Promise<boolean> {
    const at = new Date(this.deps.clock().getTime() + (this.deps.giveUpRetryMs ?? 30_000));
    await this.deps.dispatch(lease.taskId, { lane: 'timer', at }, priorities.followUp);
    return true;
  }

  /** Nothing: whoever interrupted the step sends the next job (the cancel, the takeover, the drain's hand-over). */
  endInterrupted(): Promise<boolean> {
    return Promise.resolve(true);
  }

  async wake(taskId: string): Promise<void> {
    await this.deps.dispatch(taskId, { lane: 'now' }, priorities.requested);
  }
}
