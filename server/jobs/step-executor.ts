import type { StepOutcome } from '../engine/loop';
import { AppError } from '../errors/app-error';
import type { JobsLogger, Lease, LeaseBackend, StepHandler } from './lease-backend';
import { positiveInteger } from './positive-integer';

export interface StepExecutorOptions<L extends Lease> {
  readonly backend: LeaseBackend<L>;
  readonly handler: StepHandler;
  /** Steps of a task that may fail in a row before the task is given up. */
  readonly maxAttempts: number;
  /** This process's worker id, for the logs and the drain's abort reason. */
  readonly workerId: string;
  readonly logger: JobsLogger;
}

interface RunningStep {
  readonly controller: AbortController;
  /** A lease of the same task arrived while this step ran: one more step once it ends. */
  rerun: boolean;
  readonly done: Promise<void>;
}

/**
 * The rules for running a task's step, whichever queue the leases come from:
 *
 * - **One step per task at a time** in this process. A lease for a task whose step runs here runs
 *   nothing; the running step runs once more when it ends (a wake is never lost), unless it
 *   failed: its retry or its give-up already follows, and a rerun would start a second chain of
 *   attempts beside it. Across processes, the backend's lease keeps steps apart, as long as it
 *   is kept: a worker stalled past its lease may overlap the new holder's step until it sees the
 *   lease lost (at its next renewal or job watch) and aborts its own.
 * - **Attempts**: a step that throws (or returns no valid outcome) is retried after the
 *   backend's backoff; after `maxAttempts` in a row the task is given up once (`onGiveUp`). The
 *   count is per task, the larger of the backend's record and this process's: a wake that ran in
 *   a retry's place carries the chain's count on. A give-up that fails is tried again, without a
 *   step (on pg-boss, by the process that holds the count: a task moved elsewhere starts anew). An outcome that cannot be recorded counts as a failure too: the retry runs one more
 *   step, which records it then (an extra step is harmless; two at once are not).
 * - **Interruptions**: a cancel (`abort`), a lost lease (the backend's `hold`) or a drain aborts
 *   the step's signal. An interrupted step counts no attempt and records no outcome: the next
 *   step resumes from the task's last checkpoint.
 * - **Drain**: no lease runs any more; the running steps are aborted, and once they have settled
 *   the tasks to hand over (interrupted, or whose leases arrived) are returned.
 *
 * The step's end is recorded while this process still holds the task, so a lease fetched
 * meanwhile finds the step running (and is absorbed), never a gap in which to start a second
 * chain. An error from the backend while recording propagates out of `execute`, after the
 * bookkeeping here is done: pg-boss then fails the job itself; locally the lease expires.
 */
export class StepExecutor<L extends Lease> {
  private readonly backend: LeaseBackend<L>;
  private readonly handler: StepHandler;
  private readonly maxAttempts: number;
  private readonly workerId: string;
  private readonly logger: JobsLogger;

  private readonly running = new Map<string, RunningStep>();
  /** Each task whose last step failed here: its failed attempts in a row, and the last error. */
  private readonly failures = new Map<string, { count: number; error: unknown }>();
  private readonly handBack = new Set<string>();
  private draining = false;

  constructor(options: StepExecutorOptions<L>) {
    this.backend = options.backend;
    this.handler = options.handler;
    this.maxAttempts = positiveInteger(options.maxAttempts, 'maxAttempts');
    this.workerId = options.workerId;
    this.logger = options.logger;
  }

  /** Runs (or absorbs, or hands back) one lease. Resolves once its end is recorded. */
  async execute(lease: L): Promise<void> {
    const before = this.setAside(lease);
    if (before !== null) return before;
    if (!(await this.backend.admit(lease))) return;
    // Looked at again: the admission awaited, and another lease of the task may have started.
    // From this check to `running.set` nothing awaits, so no abort or drain falls in between.
    const after = this.setAside(lease);
    if (after !== null) return after;
    const { taskId } = lease;
    let finish: () => void = () => undefined;
    const step: RunningStep = {
      controller: new AbortController(),
      rerun: false,
      done: new Promise<void>((resolve) => (finish = resolve)),
    };
    this.running.set(taskId, step);
    let mayRerun = false;
    try {
      mayRerun = await this.run(lease, step.controller);
    } finally {
      this.running.delete(taskId);
      finish();
      if (this.isDraining()) {
        if (step.controller.signal.aborted || step.rerun) this.handBack.add(taskId);
      } else if (step.rerun && mayRerun) {
        await this.wake(taskId);
      }
    }
  }

  /** Aborts the task's step if it runs here; false when it does not. */
  abort(taskId: string, reason: Error): boolean {
    const step = this.running.get(taskId);
    if (step === undefined) return false;
    step.controller.abort(reason);
    return true;
  }

  /** Aborts every running step. */
  abortAll(reason: Error): void {
    for (const step of this.running.values()) step.controller.abort(reason);
  }

  /**
   * This worker's tasks were moved elsewhere (it was declared dead): aborts their steps and
   * forgets their counts of failures, which the tasks' new holders keep from now on.
   */
  handedOver(reason: Error): void {
    this.abortAll(reason);
    this.failures.clear();
  }

  /** The tasks whose step runs in this process now. */
  runningTasks(): string[] {
    return [...this.running.keys()];
  }

  /**
   * Stops for good: every later lease is ended as interrupted and handed back, the running steps
   * are aborted, and once they have settled the tasks to hand over are returned.
   */
  async drain(): Promise<string[]> {
    this.draining = true;
    this.abortAll(new Error(`worker ${this.workerId} is stopping`));
    while (this.running.size > 0) {
      await Promise.all([...this.running.values()].map((step) => step.done));
    }
    return [...this.handBack];
  }

  // A method, not the field: `draining` changes while steps await.
  private isDraining(): boolean {
    return this.draining;
  }

  /**
   * What becomes of a lease that runs nothing, decided without awaiting: null when it runs. While
   * this process drains it is handed back (the promise records it as interrupted); while the
   * task's step runs here, that step reruns (the promise is already resolved).
   */
  private setAside(lease: L): Promise<void> | null {
    if (this.isDraining()) {
      this.handBack.add(lease.taskId);
      return this.end(lease, 'interrupted', () => this.backend.endInterrupted(lease));
    }
    const current = this.running.get(lease.taskId);
    if (current === undefined) return null;
    current.rerun = true;
    return Promise.resolve();
  }

  /** Runs the step and records its end; false when it failed (a retry or give-up follows). */
  private async run(lease: L, controller: AbortController): Promise<boolean> {
    const { taskId } = lease;
    const { signal } = controller;
    const stopHolding = this.backend.hold(lease, (reason) => {
      if (signal.aborted) return;
      this.logger.warn('[jobs] lost the lease; aborting the step', this.context(lease));
      controller.abort(reason);
    });
    // Each end stops holding first, so a renewal that races with the end cannot mistake the
    // ended lease for a lost one.
    const end = (what: string, update: () => Promise<boolean>): Promise<void> => {
      stopHolding();
      return this.end(lease, what, update);
    };
    try {
      const known = this.failures.get(taskId);
      const failed = Math.max(lease.attempts, known?.count ?? 0);
      if (failed >= this.maxAttempts) {
        // An earlier give-up did not complete (it threw, or its process died): finish it, with
        // the step's own error where one is known.
        const error =
          lease.lastError !== null
            ? new Error(lease.lastError)
            : (known?.error ?? new Error('Too many failed attempts'));
        await this.giveUp(lease, error, end);
        return false;
      }
      let outcome: StepOutcome;
      try {
        outcome = checkOutcome(await this.handler.step(taskId, signal));
      } catch (error) {
        if (signal.aborted) {
          this.failures.delete(taskId);
          await end('interrupted', () => this.backend.endInterrupted(lease));
          return true;
        }
        await this.fail(lease, error, failed + 1, end);
        return false;
      }
      this.failures.delete(taskId);
      if (signal.aborted) {
        await end('interrupted', () => this.backend.endInterrupted(lease));
        return true;
      }
      try {
        await end('finished', () => this.backend.endFinished(lease, outcome));
      } catch (error) {
        // The step succeeded, so only the lease's own count goes on.
        if (lease.attempts + 1 < this.maxAttempts) {
          await this.fail(lease, error, lease.attempts + 1, end);
          return false;
        }
        // Nothing left to retry with. On pg-boss the task waits for its next wake (a person's
        // action, or a takeover's sweep); locally its job's lease expires and it runs again.
        this.logger.error(
          '[jobs] recording a step failed on the last attempt',
          this.context(lease, error),
        );
      }
      return true;
    } finally {
      stopHolding();
    }
  }

  private async fail(
    lease: L,
    error: unknown,
    failures: number,
    end: (what: string, update: () => Promise<boolean>) => Promise<void>,
  ): Promise<void> {
    if (failures >= this.maxAttempts) {
      await this.giveUp(lease, error, end);
      return;
    }
    this.logger.warn('[jobs] step failed; it will be retried', this.context(lease, error));
    this.failures.set(lease.taskId, { count: failures, error });
    await end('failed', () => this.backend.endFailed(lease, error, failures));
  }

  /** Gives the task up while still holding it; a give-up that throws is tried again later. */
  private async giveUp(
    lease: L,
    error: unknown,
    end: (what: string, update: () => Promise<boolean>) => Promise<void>,
  ): Promise<void> {
    try {
      await this.handler.onGiveUp(lease.taskId, error);
    } catch (giveUpError) {
      this.logger.error('[jobs] giving the task up failed; it will be tried again', {
        ...this.context(lease, giveUpError),
        stepError: error,
      });
      this.failures.set(lease.taskId, { count: this.maxAttempts, error });
      await end('give-up retry', () => this.backend.endGiveUpFailed(lease, error));
      return;
    }
    this.failures.delete(lease.taskId);
    await end('give-up', () => this.backend.endGivenUp(lease, error));
  }

  /** Records a lease's end; a lost lease is logged (nothing was recorded), errors propagate. */
  private async end(lease: L, what: string, update: () => Promise<boolean>): Promise<void> {
    if (!(await update())) {
      this.logger.warn(`[jobs] lost the lease before recording "${what}"`, this.context(lease));
    }
  }

  private async wake(taskId: string): Promise<void> {
    try {
      await this.backend.wake(taskId);
    } catch (error) {
      this.logger.error('[jobs] asking for the next step of a task failed', {
        workerId: this.workerId,
        taskId,
        error,
      });
    }
  }

  private context(lease: L, error?: unknown): Record<string, unknown> {
    const context: Record<string, unknown> = { workerId: this.workerId, taskId: lease.taskId };
    if (error !== undefined) context.error = error;
    return context;
  }
}

/** The outcome, when it is one; a step that returns anything else failed. */
function checkOutcome(outcome: StepOutcome): StepOutcome {
  const kind = (outcome as Partial<StepOutcome> | null | undefined)?.kind;
  if (kind === 'done' || kind === 'continue') return outcome;
  if (kind === 'park') {
    const { until } = outcome as { until?: unknown };
    if (until === null || (until instanceof Date && !Number.isNaN(until.getTime()))) return outcome;
  }
  throw new AppError('INTERNAL', `A step returned an invalid outcome: ${JSON.stringify(outcome)}`);
}
