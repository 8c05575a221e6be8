import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { AppError } from '../../errors/app-error';
import type { JobsLogger, StepHandler } from '../lease-backend';
import { positiveInteger } from '../positive-integer';
import { StepExecutor } from '../step-executor';
import type { ClaimedJob, JobQueue } from './job-queue';
import { LocalLeases } from './local-leases';

/** The queue operations the runner uses (a `JobQueue`, or a fake in unit tests). */
export type RunnerQueue = Pick<
  JobQueue,
  'claim' | 'renew' | 'finish' | 'fail' | 'release' | 'enqueue'
>;

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
  logger?: JobsLogger;
}

export const defaultRetryDelayMs = (failures: number): number =>
  Math.min(60_000, 1_000 * 2 ** failures);

/**
 * The local job table's fetch loop: claims due jobs while fewer than `concurrency` steps run and
 * hands each to the `StepExecutor`, which keeps the step rules (see there). Claims leave out the
 * tasks running here; across processes the lease keeps steps apart, as long as renewals get
 * through. Errors from the queue are logged and the loop goes on.
 */
export class JobRunner {
  private readonly queue: RunnerQueue;
  private readonly workerId: string;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly logger: JobsLogger;
  private readonly leases: LocalLeases;
  private readonly newExecutor: () => StepExecutor<ClaimedJob>;

  /** The executor of the current start (a drained one runs nothing any more). */
  private executor: StepExecutor<ClaimedJob> | null = null;
  private readonly inFlight = new Map<string, Promise<void>>();
  private loopDone: Promise<void> | null = null;
  private stopping = false;
  private wakePending = false;
  private interruptSleep: (() => void) | null = null;

  constructor(options: JobRunnerOptions) {
    this.queue = options.queue;
    this.workerId = options.workerId;
    this.concurrency = positiveInteger(options.concurrency ?? 2, 'concurrency');
    this.leaseMs = positiveInteger(options.leaseMs ?? 30_000, 'leaseMs');
    this.pollMs = positiveInteger(options.pollMs ?? 1000, 'pollMs');
    const maxAttempts = positiveInteger(options.maxAttempts ?? 3, 'maxAttempts');
    this.logger = options.logger ?? console;
    if (this.workerId === '') throw new AppError('INVALID_ARGUMENT', 'workerId must not be empty');
    this.leases = new LocalLeases({
      queue: this.queue,
      workerId: this.workerId,
      leaseMs: this.leaseMs,
      maxAttempts,
      retryDelayMs: options.retryDelayMs ?? defaultRetryDelayMs,
      clock: options.clock ?? (() => new Date()),
      onWake: () => this.wake(),
      onRenewError: (job, error) =>
        this.logger.error('[jobs] renewing a lease failed', this.context(job, error)),
    });
    const { handler } = options;
    this.newExecutor = () =>
      new StepExecutor({
        backend: this.leases,
        handler,
        maxAttempts,
        workerId: this.workerId,
        logger: this.logger,
      });
  }

  /** Starts claiming and running steps. No-op while running. */
  start(): void {
    if (this.loopDone !== null) return;
    this.stopping = false;
    this.executor = this.newExecutor();
    this.loopDone = this.loop();
  }

  /**
   * Stops claiming, aborts the running steps' signals, and resolves once every step has settled
   * and its job was ended in the queue (an interrupted one is due again).
   */
  async stop(): Promise<void> {
    const loopDone = this.loopDone;
    if (loopDone === null) return;
    this.stopping = true;
    this.interruptSleep?.();
    const drained = this.executor?.drain();
    await loopDone;
    await drained;
    // The loop launches nothing once `stopping` is set: this is every lease still being ended.
    await Promise.all(this.inFlight.values());
    this.executor = null;
    this.loopDone = null;
  }

  /** Looks for due jobs now instead of at the next poll (e.g. right after an enqueue). */
  wake(): void {
    this.wakePending = true;
    this.interruptSleep?.();
  }

  /** Aborts the signal of the task's running step in this process; false when none runs here. */
  abort(taskId: string, reason?: unknown): boolean {
    const error = reason instanceof Error ? reason : new Error(`Step of task ${taskId} aborted`);
    return this.executor?.abort(taskId, error) ?? false;
  }

  /** Task ids whose step runs in this process now. */
  running(): string[] {
    return [...this.inFlight.keys()];
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

  /** Claims and hands over jobs until the slots are full or nothing is due. Never throws. */
  private async fill(): Promise<void> {
    while (!this.isStopping() && this.inFlight.size < this.concurrency) {
      let job: ClaimedJob | null;
      try {
        job = await this.queue.claim(this.workerId, this.leaseMs, {
          excludeTaskIds: this.running(),
        });
      } catch (error) {
        this.logger.error('[jobs] claiming a job failed', { workerId: this.workerId, error });
        return;
      }
      if (job === null) return;
      const executor = this.executor;
      if (executor === null || this.inFlight.has(job.taskId)) {
        // Cannot happen (excludeTaskIds; stop() awaits the loop first). Not released either: a
        // lease of a running step is that step's own.
        this.logger.error('[jobs] claimed a task whose step is still running here', {
          workerId: this.workerId,
          taskId: job.taskId,
        });
        return;
      }
      this.launch(executor, job);
    }
  }

  private launch(executor: StepExecutor<ClaimedJob>, job: ClaimedJob): void {
    const settled = executor
      .execute(job)
      .catch((error: unknown) => {
        // The lease expires and another worker (or this one) runs the step again.
        this.logger.error('[jobs] recording the end of a step failed', this.context(job, error));
      })
      .finally(() => {
        this.inFlight.delete(job.taskId);
        this.wake();
      });
    this.inFlight.set(job.taskId, settled);
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
