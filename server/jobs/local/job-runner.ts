import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { AppError } from '../../errors/app-error';
import type { ClaimedJob, JobQueue, StepOutcome } from './job-queue';

/** What the runner runs: one step of a task's loop at a time. */
export interface StepHandler {
  /**
   * Runs one step. `signal` aborts on `stop()`, on `abort(taskId)` and when the lease is lost;
   * the step should then settle soon (throwing is fine: an aborted step's error is no attempt).
   */
  step(taskId: string, signal: AbortSignal): Promise<StepOutcome>;
  /** Called once the step threw `maxAttempts` times in a row; the job is done afterwards. */
  onGiveUp(taskId: string, error: unknown): Promise<void>;
}

/** The queue operations the runner uses (a `JobQueue`, or a fake in unit tests). */
export type RunnerQueue = Pick<JobQueue, 'claim' | 'renew' | 'finish' | 'fail' | 'release'>;

export interface RunnerLogger {
  error(message: string, context: Record<string, unknown>): void;
  warn(message: string, context: Record<string, unknown>): void;
}

export interface JobRunnerOptions {
  queue: RunnerQueue;
  /** Unique per runner: `newWorkerId()`. */
  workerId: string;
  handler: StepHandler;
  /** Steps at once (default 2). */
  concurrency?: number;
  /** Lease length; renewed every leaseMs/3 while a step runs (default 30 s). */
  leaseMs?: number;
  /** How often to look for due jobs when not woken (default 1 s). */
  pollMs?: number;
  /** Steps that may throw in a row before `onGiveUp` (default 3). */
  maxAttempts?: number;
  /** Backoff before retry number `failures` (1, 2, …); default 2 s, 4 s, 8 s … capped at 60 s. */
  retryDelayMs?: (failures: number) => number;
  /** For retry times (default: the real clock). */
  clock?: () => Date;
  /** Default: console. */
  logger?: RunnerLogger;
}

interface ActiveStep {
  readonly job: ClaimedJob;
  readonly controller: AbortController;
  settled: Promise<void>;
}

export const defaultRetryDelayMs = (failures: number): number =>
  Math.min(60_000, 1_000 * 2 ** failures);

/**
 * Runs task steps from a `JobQueue`: claims due jobs while fewer than `concurrency` steps run,
 * keeps each claimed job's lease alive, and ends each step in the queue (`finish` for an outcome,
 * `fail` with backoff for a throw, `onGiveUp` then done after `maxAttempts` throws in a row,
 * `release` for a step that threw after its signal was aborted). Never runs two steps of one task
 * at once in this process. Across processes the lease does, as long as renewals get through: a
 * worker stalled past its lease (or whose job was cancelled) loses the job, and aborts its own
 * step at its next renewal; until that step settles, it may overlap the new holder's step.
 * Errors from the queue are logged and the loop goes on.
 */
export class JobRunner {
  private readonly queue: RunnerQueue;
  private readonly workerId: string;
  private readonly handler: StepHandler;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxAttempts: number;
  private readonly retryDelayMs: (failures: number) => number;
  private readonly clock: () => Date;
  private readonly logger: RunnerLogger;

  private readonly active = new Map<string, ActiveStep>();
  private loopDone: Promise<void> | null = null;
  private stopping = false;
  private wakePending = false;
  private interruptSleep: (() => void) | null = null;

  constructor(options: JobRunnerOptions) {
    this.queue = options.queue;
    this.workerId = options.workerId;
    this.handler = options.handler;
    this.concurrency = positiveInteger(options.concurrency ?? 2, 'concurrency');
    this.leaseMs = positiveInteger(options.leaseMs ?? 30_000, 'leaseMs');
    this.pollMs = positiveInteger(options.pollMs ?? 1000, 'pollMs');
    this.maxAttempts = positiveInteger(options.maxAttempts ?? 3, 'maxAttempts');
    this.retryDelayMs = options.retryDelayMs ?? defaultRetryDelayMs;
    this.clock = options.clock ?? (() => new Date());
    this.logger = options.logger ?? console;
    if (this.workerId === '') throw new AppError('INVALID_ARGUMENT', 'workerId must not be empty');
  }

  /** Starts claiming and running steps. No-op while running. */
  start(): void {
    if (this.loopDone !== null) return;
    this.stopping = false;
    this.loopDone = this.loop();
  }

  /**
   * Stops claiming, aborts the running steps' signals, and resolves once every step has settled
   * and its job was ended in the queue.
   */
  async stop(): Promise<void> {
    const loopDone = this.loopDone;
    if (loopDone === null) return;
    this.stopping = true;
    for (const step of this.active.values()) {
      step.controller.abort(new Error(`Job runner ${this.workerId} is stopping`));
    }
    this.interruptSleep?.();
    await loopDone;
    // The loop launches nothing once `stopping` is set: this is every step still running.
    await Promise.all([...this.active.values()].map((step) => step.settled));
    this.loopDone = null;
  }

  /** Looks for due jobs now instead of at the next poll (e.g. right after an enqueue). */
  wake(): void {
    this.wakePending = true;
    this.interruptSleep?.();
  }

  /** Aborts the signal of the task's running step in this process; false when none runs here. */
  abort(taskId: string, reason?: unknown): boolean {
    const step = this.active.get(taskId);
    if (step === undefined) return false;
    step.controller.abort(reason ?? new Error(`Step of task ${taskId} aborted`));
    return true;
  }

  /** Task ids whose step runs in this process now. */
  running(): string[] {
    return [...this.active.keys()];
  }

  private async loop(): Promise<void> {
    while (!this.isStopping()) {
      this.wakePending = false;
      await this.fill();
      // SQLite answers without yielding to I/O: let timers and sockets run between rounds.
      await yieldToEventLoop();
      if (!this.isStopping() && !this.isWakePending()) await this.sleep(this.pollMs);
    }
  }

  // Methods, not the fields: the flags change while the loop awaits.
  private isStopping(): boolean {
    return this.stopping;
  }

  private isWakePending(): boolean {
    return this.wakePending;
  }

  /** Claims and launches jobs until the slots are full or nothing is due. Never throws. */
  private async fill(): Promise<void> {
    while (!this.isStopping() && this.active.size < this.concurrency) {
      let job: ClaimedJob | null;
      try {
        job = await this.queue.claim(this.workerId, this.leaseMs, {
          excludeTaskIds: this.running(),
        });
      } catch (error) {
        this.logger.error('[job-runner] claiming a job failed', { workerId: this.workerId, error });
        return;
      }
      if (job === null) return;
      if (this.active.has(job.taskId)) {
        // Cannot happen with JobQueue (excludeTaskIds). Not released either: the lease is the
        // running step's own (same worker, same job).
        this.logger.error('[job-runner] claimed a task whose step is still running here', {
          workerId: this.workerId,
          taskId: job.taskId,
        });
        return;
      }
      if (this.isStopping()) {
        await this.settle(job, 'release', () => this.queue.release(job.id, this.workerId));
        return;
      }
      this.launch(job);
    }
  }

  private launch(job: ClaimedJob): void {
    const step: ActiveStep = { job, controller: new AbortController(), settled: Promise.resolve() };
    this.active.set(job.taskId, step);
    step.settled = this.run(step)
      .catch((error: unknown) => {
        this.logger.error('[job-runner] step bookkeeping failed', this.context(job, error));
      })
      .finally(() => {
        this.active.delete(job.taskId);
        this.wake();
      });
  }

  private async run({ job, controller }: ActiveStep): Promise<void> {
    const lease = this.keepLease(job, controller);
    // Each path stops renewing right before the update that ends the step, so a renewal that
    // races with that update cannot mistake the ended job for a lost lease.
    const end = (what: string, update: () => Promise<boolean>): Promise<void> => {
      lease.stop();
      return this.settle(job, what, update);
    };
    try {
      if (job.attempts >= this.maxAttempts) {
        // An earlier give-up did not complete (onGiveUp threw, or the worker died): finish it.
        await this.giveUp(job, new Error(job.lastError ?? 'Too many failed attempts'), end);
        return;
      }
      let outcome: StepOutcome;
      try {
        outcome = await this.handler.step(job.taskId, controller.signal);
        checkOutcome(outcome);
      } catch (error) {
        if (controller.signal.aborted) {
          // Interrupted (stop, abort, lost lease), not failed: no attempt counted.
          await end('release', () => this.queue.release(job.id, this.workerId));
          return;
        }
        const failures = job.attempts + 1;
        if (failures >= this.maxAttempts) {
          await this.giveUp(job, error, end);
        } else {
          this.logger.warn('[job-runner] step failed; will retry', this.context(job, error));
          await end('fail', () =>
            this.queue.fail(job.id, this.workerId, error, { retryAt: this.retryAt(failures) }),
          );
        }
        return;
      }
      await end('finish', () => this.queue.finish(job.id, this.workerId, outcome));
    } finally {
      lease.stop();
    }
  }

  /**
   * Calls onGiveUp (still holding the lease), then marks the job done. If onGiveUp throws, the
   * job is queued again with its attempts at the maximum, so the next claim retries the give-up
   * without running a step.
   */
  private async giveUp(
    job: ClaimedJob,
    error: unknown,
    end: (what: string, update: () => Promise<boolean>) => Promise<void>,
  ): Promise<void> {
    try {
      await this.handler.onGiveUp(job.taskId, error);
    } catch (giveUpError) {
      this.logger.error('[job-runner] onGiveUp failed; will retry it', {
        ...this.context(job, giveUpError),
        stepError: error,
      });
      await end('fail', () =>
        this.queue.fail(job.id, this.workerId, error, {
          retryAt: this.retryAt(Math.max(job.attempts + 1, this.maxAttempts)),
        }),
      );
      return;
    }
    await end('give up', () => this.queue.fail(job.id, this.workerId, error, { giveUp: true }));
  }

  /** Runs one queue update that ends a step; logs a lost lease or a database error. */
  private async settle(
    job: ClaimedJob,
    what: string,
    update: () => Promise<boolean>,
  ): Promise<void> {
    try {
      if (!(await update())) {
        this.logger.warn(
          `[job-runner] lost the lease before ${what}; nothing recorded`,
          this.context(job),
        );
      }
    } catch (error) {
      // The lease expires and another worker (or this one) runs the step again.
      this.logger.error(`[job-runner] ${what} failed`, this.context(job, error));
    }
  }

  /** Renews the lease every leaseMs/3 until stopped; aborts the step when the lease is lost. */
  private keepLease(job: ClaimedJob, controller: AbortController): { stop(): void } {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const interval = Math.max(1, Math.floor(this.leaseMs / 3));
    const tick = async (): Promise<void> => {
      try {
        const held = await this.queue.renew(job.id, this.workerId, this.leaseMs);
        if (!held) {
          if (!stopped) {
            this.logger.warn('[job-runner] lease lost; aborting the step', this.context(job));
            controller.abort(new Error(`Lease on the job of task ${job.taskId} was lost`));
          }
          return;
        }
      } catch (error) {
        this.logger.error('[job-runner] renewing a lease failed', this.context(job, error));
      }
      if (!stopped) timer = setTimeout(() => void tick(), interval);
    };
    timer = setTimeout(() => void tick(), interval);
    return {
      stop: () => {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.interruptSleep = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.interruptSleep = done;
    });
  }

  private retryAt(failures: number): Date {
    return new Date(this.clock().getTime() + Math.max(0, this.retryDelayMs(failures)));
  }

  private context(job: ClaimedJob, error?: unknown): Record<string, unknown> {
    const context: Record<string, unknown> = {
      workerId: this.workerId,
      jobId: job.id,
      taskId: job.taskId,
    };
    if (error !== undefined) context.error = error;
    return context;
  }
}

function checkOutcome(outcome: StepOutcome): void {
  const kind = (outcome as Partial<StepOutcome> | null | undefined)?.kind;
  if (kind === 'done' || kind === 'continue') return;
  if (kind === 'park') {
    const { until } = outcome as { until?: unknown };
    if (until === null || (until instanceof Date && !Number.isNaN(until.getTime()))) return;
  }
  throw new AppError('INTERNAL', `A step returned an invalid outcome: ${JSON.stringify(outcome)}`);
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new AppError('INVALID_ARGUMENT', `${name} must be a whole number ≥ 1, got ${value}`);
  }
  return value;
}
