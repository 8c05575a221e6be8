import type { StepOutcome } from '../../engine/loop';
import type { LeaseBackend } from '../lease-backend';
import type { ClaimedJob, JobQueue } from './job-queue';

/** The queue operations the local leases use (a `JobQueue`, or a fake in unit tests). */
export type LeaseQueue = Pick<JobQueue, 'renew' | 'finish' | 'fail' | 'release' | 'enqueue'>;

export interface LocalLeasesOptions {
  readonly queue: LeaseQueue;
  readonly workerId: string;
  /** Lease length; renewed every leaseMs/3 while a step runs. */
  readonly leaseMs: number;
  readonly maxAttempts: number;
  /** Backoff before retry number `failures` (1, 2, …). */
  readonly retryDelayMs: (failures: number) => number;
  readonly clock: () => Date;
  /** Called after a wake was recorded, so the claim loop looks for it now. */
  readonly onWake: () => void;
  readonly onRenewError: (job: ClaimedJob, error: unknown) => void;
}

/**
 * The local job table as a lease backend (SQLite, one process): a claimed job is the lease, kept
 * by renewing it; each end is a compare-and-set on this worker holding the job, so an end after
 * the lease was lost changes nothing. A wake that arrives while the step runs is recorded on the
 * job (`wakeRequested`) and `finish` queues it again: the table keeps wakes itself.
 */
export class LocalLeases implements LeaseBackend<ClaimedJob> {
  constructor(private readonly options: LocalLeasesOptions) {}

  admit(): Promise<boolean> {
    return Promise.resolve(true);
  }

  hold(job: ClaimedJob, lost: (reason: Error) => void): () => void {
    const { queue, workerId, leaseMs } = this.options;
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const interval = Math.max(1, Math.floor(leaseMs / 3));
    const tick = async (): Promise<void> => {
      try {
        if (!(await queue.renew(job.id, workerId, leaseMs))) {
          if (!stopped) lost(new Error(`Lease on the job of task ${job.taskId} was lost`));
          return;
        }
      } catch (error) {
        // Kept trying: the lease is still ours until it expires.
        this.options.onRenewError(job, error);
      }
      if (!stopped) timer = setTimeout(() => void tick(), interval);
    };
    timer = setTimeout(() => void tick(), interval);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }

  endFinished(job: ClaimedJob, outcome: StepOutcome): Promise<boolean> {
    return this.options.queue.finish(job.id, this.options.workerId, outcome);
  }

  endFailed(job: ClaimedJob, error: unknown, failures: number): Promise<boolean> {
    return this.failAt(job, error, failures);
  }

  endGivenUp(job: ClaimedJob, error: unknown): Promise<boolean> {
    return this.options.queue.fail(job.id, this.options.workerId, error, { giveUp: true });
  }

  /**
   * Queued again after the give-up's backoff; the job's count of attempts is then at least the
   * maximum (it was one short when the step failed for the last time), so the next claim gives
   * up without a step.
   */
  endGiveUpFailed(job: ClaimedJob, error: unknown): Promise<boolean> {
    return this.failAt(job, error, Math.max(job.attempts + 1, this.options.maxAttempts));
  }

  endInterrupted(job: ClaimedJob): Promise<boolean> {
    return this.options.queue.release(job.id, this.options.workerId);
  }

  async wake(taskId: string): Promise<void> {
    await this.options.queue.enqueue(taskId);
    this.options.onWake();
  }

  private failAt(job: ClaimedJob, error: unknown, failures: number): Promise<boolean> {
    const { clock, retryDelayMs } = this.options;
    const retryAt = new Date(clock().getTime() + Math.max(0, retryDelayMs(failures)));
    return this.options.queue.fail(job.id, this.options.workerId, error, { retryAt });
  }
}
