import type { Db, Prisma } from '../../db/client';
import { AppError } from '../../errors/app-error';
import { claimJob } from './claim-job';
import { describeError } from '../describe-error';
import { enqueueJob } from './enqueue-job';
import { checkDate, checkDuration } from './job-checks';
import { held, unlocked } from './job-lease';
import {
  PARKED_UNTIL_WOKEN,
  type ClaimedJob,
  type EnqueueResult,
  type FailDisposition,
  type JobQueueOptions,
  type JobState,
  type JobView,
  type StepOutcome,
} from './job-types';

export { describeError } from '../describe-error';
export {
  PARKED_UNTIL_WOKEN,
  type ClaimedJob,
  type EnqueueResult,
  type FailDisposition,
  type JobQueueOptions,
  type JobState,
  type JobView,
  type StepOutcome,
} from './job-types';
export { isLocalWorkerAlive, newWorkerId, parseWorkerId } from '../workers/worker-id';

/**
 * The DB-backed task job queue: one `Job` row per task. A worker claims a due job by taking a
 * lease (lockedBy/lockedUntil) with a compare-and-set `updateMany`, runs one step of the task
 * loop, and ends the step with `finish` (done / park / continue) or `fail`. Every state change
 * by a worker is conditional on `lockedBy = workerId AND state = 'running'`, so a worker that
 * lost its lease (expired and taken over, released at start-up, cancelled) changes nothing.
 *
 * States and what makes a job due (claimable):
 * - `queued`: due at `runAt` (now, a retry's backoff, or a time given to `enqueue`).
 * - `running`: held by `lockedBy` until `lockedUntil`; due again once the lease has expired.
 * - `parked`: the step waits for input; due at `runAt` (the park's deadline) or when woken.
 *   A park without a deadline stores `PARKED_UNTIL_WOKEN` (year 9999) as its `runAt`.
 * - `done`: nothing scheduled; `enqueue` wakes it.
 *
 * Times come from the queue's clock (not the database's), so every process sharing the database
 * must have a roughly synchronised clock: a skew shortens or lengthens other workers' leases.
 */
export class JobQueue {
  readonly now: () => Date;

  constructor(
    private readonly db: Db,
    options: JobQueueOptions = {},
  ) {
    this.now = options.clock ?? (() => new Date());
  }

  /**
   * Makes sure the task's job will run: creates it (queued at `runAt`, default now) or wakes it.
   * A wake never postpones: parked/done → queued at min(now, runAt); queued → `runAt` moved to
   * min(its runAt, now, runAt); running → `wakeRequested`, and the worker queues it again when the
   * step ends (see `finish`). Idempotent, and safe when callers race (the unique `taskId`).
   */
  async enqueue(taskId: string, options: { runAt?: Date } = {}): Promise<EnqueueResult> {
    return enqueueJob(this.db, this.now(), taskId, options);
  }

  /**
   * Takes the oldest due job (by `runAt`): queued or parked with `runAt <= now`, or running with
   * an expired lease (its worker died or stalled). The take is a compare-and-set on the condition
   * that made the job eligible, so of two racing workers exactly one gets it. Clears
   * `wakeRequested` (the step about to run sees everything written before the claim); does not
   * count an attempt. `excludeTaskIds`: tasks this worker is still running a step of.
   */
  async claim(
    workerId: string,
    leaseMs: number,
    options: { excludeTaskIds?: readonly string[] } = {},
  ): Promise<ClaimedJob | null> {
    return claimJob(this.db, () => this.now(), workerId, leaseMs, options);
  }

  /** Extends the lease to now + leaseMs. False: this worker no longer holds the job. */
  async renew(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
    checkDuration(leaseMs, 'leaseMs');
    const { count } = await this.db.job.updateMany({
      where: held(jobId, workerId),
      data: { lockedUntil: new Date(this.now().getTime() + leaseMs) },
    });
    return count === 1;
  }

  /**
   * Ends a step that returned normally and resets `attempts`. `continue` → queued now; `park` →
   * parked until `until`; `done` → done. If a wake-up arrived during the step (`wakeRequested`),
   * a park or a done becomes queued now instead: a wake-up is never lost. False: this worker no
   * longer holds the job (nothing changed).
   */
  async finish(jobId: string, workerId: string, outcome: StepOutcome): Promise<boolean> {
    const requeue = { state: 'queued', runAt: this.now(), attempts: 0, ...unlocked };
    if (outcome.kind === 'continue') return this.update(held(jobId, workerId), requeue);
    let settled: Prisma.JobUpdateManyMutationInput;
    switch (outcome.kind) {
      case 'park':
        if (outcome.until !== null) checkDate(outcome.until, 'until');
        settled = { state: 'parked', runAt: outcome.until ?? PARKED_UNTIL_WOKEN };
        break;
      case 'done':
        settled = { state: 'done' };
        break;
      default:
        throw new AppError('INVALID_ARGUMENT', `Unknown step outcome ${JSON.stringify(outcome)}`);
    }
    // Only the holder clears wakeRequested, others only set it: if the first update misses
    // because the flag was set, the second one matches (unless the lease is gone).
    return (
      (await this.update(
        { ...held(jobId, workerId), wakeRequested: false },
        { ...settled, attempts: 0, ...unlocked },
      )) || (await this.update({ ...held(jobId, workerId), wakeRequested: true }, requeue))
    );
  }

  /**
   * Ends a step that threw: counts an attempt, records the error, then queues the job at
   * `retryAt` or (`giveUp`) marks it done. A wake-up that arrived during the step is dropped (the
   * retry sees the new input anyway). False: this worker no longer holds the job.
   */
  async fail(
    jobId: string,
    workerId: string,
    error: unknown,
    disposition: FailDisposition,
  ): Promise<boolean> {
    if ('retryAt' in disposition) checkDate(disposition.retryAt, 'retryAt');
    return this.update(held(jobId, workerId), {
      ...('retryAt' in disposition
        ? { state: 'queued', runAt: disposition.retryAt }
        : { state: 'done' }),
      attempts: { increment: 1 },
      lastError: describeError(error),
      ...unlocked,
    });
  }

  /**
   * Gives a held job back without counting an attempt: queued, due now (a step interrupted by
   * shutdown or by an abort). False: this worker no longer holds the job.
   */
  async release(jobId: string, workerId: string): Promise<boolean> {
    return this.update(held(jobId, workerId), { state: 'queued', runAt: this.now(), ...unlocked });
  }

  /**
   * Start-up recovery: every running job whose holder `isAlive` says is gone is queued again, due
   * now, without waiting for its lease to expire (attempts unchanged). Pass `isLocalWorkerAlive`.
   * Returns the released jobs' task ids.
   */
  async releaseDeadWorkers(isAlive: (workerId: string) => boolean): Promise<string[]> {
    const running = await this.db.job.findMany({
      where: { state: 'running', lockedBy: { not: null } },
      select: { id: true, taskId: true, lockedBy: true },
    });
    const alive = new Map<string, boolean>();
    const released: string[] = [];
    for (const job of running) {
      const holder = job.lockedBy ?? '';
      if (!alive.has(holder)) alive.set(holder, isAlive(holder));
      if (alive.get(holder) === true) continue;
      const { count } = await this.db.job.updateMany({
        where: { id: job.id, state: 'running', lockedBy: holder },
        data: { state: 'queued', runAt: this.now(), ...unlocked },
      });
      if (count === 1) released.push(job.taskId);
    }
    return released;
  }

  /**
   * Marks the task's job done and drops its lease, so nothing more is scheduled and a worker
   * still running a step loses the lease (its next renewal fails and aborts the step; its finish
   * changes nothing). A later `enqueue` would wake it. False: the task has no job.
   */
  async cancel(taskId: string): Promise<boolean> {
    const { count } = await this.db.job.updateMany({
      where: { taskId },
      data: { state: 'done', ...unlocked },
    });
    return count === 1;
  }

  /** The task's job, or null. */
  async get(taskId: string): Promise<JobView | null> {
    const job = await this.db.job.findUnique({
      where: { taskId },
      select: {
        id: true,
        taskId: true,
        state: true,
        runAt: true,
        wakeRequested: true,
        attempts: true,
        lockedBy: true,
        lockedUntil: true,
        lastError: true,
      },
    });
    if (job === null) return null;
    return {
      ...job,
      state: job.state as JobState,
      runAt: job.runAt.getTime() === PARKED_UNTIL_WOKEN.getTime() ? null : job.runAt,
    };
  }

  private async update(
    where: Prisma.JobWhereInput,
    data: Prisma.JobUpdateManyMutationInput,
  ): Promise<boolean> {
    const { count } = await this.db.job.updateMany({ where, data });
    return count === 1;
  }
}
