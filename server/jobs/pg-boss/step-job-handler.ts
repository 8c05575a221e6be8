import type { RunnerLogger } from '../local/job-runner';
import type { StepOutcome } from '../local/job-types';
import { followUpOf, priorities, type FollowUp, type StepJobData } from './step-jobs';

/** The fields of a fetched pg-boss job the handler reads. */
export interface StepJob {
  readonly id: string;
  readonly data: StepJobData;
  /** Earlier failed runs of this job (pg-boss counts them). */
  readonly retryCount: number;
  readonly retryLimit: number;
}

export interface StepJobHandlerDeps {
  readonly workerId: string;
  /** One step of the task loop (`stepTask`). */
  step(taskId: string, signal: AbortSignal): Promise<StepOutcome>;
  /** Ends a task whose step failed on every attempt (`abandonTask`). */
  onGiveUp(taskId: string, error: unknown): Promise<void>;
  /** The task's `workerId`; undefined when there is no such task. */
  holderOf(taskId: string): Promise<string | null | undefined>;
  /**
   * Makes the task's failed step, waiting in this worker's queue for pg-boss's retry, due now;
   * false when none waits. The retry keeps its count of attempts.
   */
  hurryRetry(taskId: string): Promise<boolean>;
  /**
   * Fails the job for pg-boss to retry after its backoff (pg-boss's `fail`). The handler does it
   * itself, while it still holds the task, rather than throwing: pg-boss records a thrown job's
   * failure only after the handler has let go, and a wake fetched in between would find neither
   * a running step nor a waiting retry, and start a second chain of attempts.
   */
  failForRetry(job: StepJob, error: unknown): Promise<void>;
  /** Sends the task a job on the queue of the worker holding it (placing it first if need be). */
  dispatch(taskId: string, followUp: NonNullable<FollowUp>, priority: number): Promise<void>;
  /** Aborts a step whose job stops being active (see `JobWatch`). */
  readonly watch: {
    watch(jobId: string, controller: AbortController): void;
    unwatch(jobId: string): void;
  };
  readonly clock: () => Date;
  readonly logger: RunnerLogger;
  /** After a failed give-up, when to try the task again (default 30 s). */
  readonly giveUpRetryMs?: number;
}

interface RunningStep {
  readonly controller: AbortController;
  /** A job of the same task arrived while this step ran: run another step once it ends. */
  rerun: boolean;
  readonly done: Promise<void>;
}

/**
 * Runs the step of one fetched job, for the pg-boss adapter. pg-boss completes the job when this
 * returns (a no-op for a job already failed here through `failForRetry`), and fails it for a
 * retry when this throws (only when failing it here failed too).
 *
 * - A job for a task another worker now holds (moved after this one was thought dead) runs
 *   nothing here: it is sent on to the holder.
 * - A job for a task whose step already runs in this process runs nothing either: the step in
 *   progress runs again once it ends, so one task never has two steps at once.
 * - A step's outcome becomes the next job (`followUpOf`); a step that throws is failed for
 *   pg-boss to retry, and on its last attempt the task is given up (`onGiveUp`) instead. A job
 *   that arrives while such a retry waits out its backoff brings the retry forward and runs
 *   nothing itself: one chain of attempts per task, as the local queue keeps it. A next
 *   job that cannot be sent fails the job too (its retry runs one more step and sends it then).
 * - Attempts are counted per task, not per job: a wake that ran in place of a retry (fetched in
 *   the same instant, the retry absorbed into it) carries on the chain's count, so a task whose
 *   step keeps failing has exactly `retryLimit + 1` attempts, then one give-up.
 * - An aborted step (cancelled, moved, expired, or this worker draining) counts no attempt and
 *   asks for nothing: whoever aborted it sends the next job (the cancel, the takeover, the drain's
 *   hand-over of `drain()`'s list).
 */
export class StepJobHandler {
  private readonly running = new Map<string, RunningStep>();
  private readonly handBack = new Set<string>();
  /** Failed attempts in a row of each task whose step failed here and waits for its retry. */
  private readonly failures = new Map<string, number>();
  private draining = false;

  constructor(private readonly deps: StepJobHandlerDeps) {}

  async handle(job: StepJob): Promise<void> {
    const { taskId } = job.data;
    if (this.draining) {
      this.handBack.add(taskId);
      return;
    }
    const current = this.running.get(taskId);
    if (current !== undefined) {
      current.rerun = true;
      return;
    }
    // pg-boss keeps a failed job in `retry`, not `created`: the queue's `short` policy does not
    // absorb a wake sent meanwhile, which would otherwise start a second chain of attempts (and a
    // second give-up) beside the first.
    if (await this.deps.hurryRetry(taskId)) return;
    const holder = await this.deps.holderOf(taskId);
    if (holder === undefined) return; // The task was deleted.
    if (holder !== this.deps.workerId) {
      await this.deps.dispatch(taskId, { lane: 'now' }, priorities.requested);
      return;
    }
    // Checked again: another job of the task may have started while the holder was read.
    if (this.running.has(taskId)) {
      (this.running.get(taskId) as RunningStep).rerun = true;
      return;
    }
    let finish: () => void = () => undefined;
    const entry: RunningStep = {
      controller: new AbortController(),
      rerun: false,
      done: new Promise<void>((resolve) => (finish = resolve)),
    };
    this.running.set(taskId, entry);
    this.deps.watch.watch(job.id, entry.controller);
    // A wake that arrived while the step ran reruns it, but not after a failure: pg-boss's
    // retry (or the give-up) already follows, and a rerun would start a second chain of
    // attempts (and a second give-up) for the same task. An aborted step (cancel) does rerun.
    let settled = false;
    try {
      settled = await this.run(job, entry.controller.signal);
    } finally {
      this.deps.watch.unwatch(job.id);
      this.running.delete(taskId);
      finish();
      // Read through a method: `draining` changes while the step runs.
      if (this.isDraining()) {
        if (entry.controller.signal.aborted || entry.rerun) this.handBack.add(taskId);
      } else if (entry.rerun && settled) {
        await this.dispatchLogged(taskId, { lane: 'now' }, priorities.requested);
      }
    }
  }

  private isDraining(): boolean {
    return this.draining;
  }

  /** Steps running in this process now. */
  runningCount(): number {
    return this.running.size;
  }

  /** Aborts the task's step if it runs here; false when it does not. */
  abort(taskId: string, reason: Error): boolean {
    const step = this.running.get(taskId);
    if (step === undefined) return false;
    step.controller.abort(reason);
    return true;
  }

  /** Aborts every running step (this worker was found dead: its tasks were moved). */
  abortAll(reason: Error): void {
    for (const step of this.running.values()) step.controller.abort(reason);
  }

  /**
   * Stops running steps: every later job is handed back untouched, the running steps are aborted,
   * and once they have settled the tasks to hand over (aborted, or whose jobs arrived) are returned.
   */
  async drain(): Promise<string[]> {
    this.draining = true;
    this.abortAll(new Error(`worker ${this.deps.workerId} is stopping`));
    while (this.running.size > 0) {
      await Promise.all([...this.running.values()].map((step) => step.done));
    }
    return [...this.handBack];
  }

  /** Runs the step; false when it failed (its retry or the give-up follows), true otherwise. */
  private async run(job: StepJob, signal: AbortSignal): Promise<boolean> {
    const { taskId } = job.data;
    let outcome: StepOutcome;
    try {
      outcome = await this.deps.step(taskId, signal);
    } catch (error) {
      if (signal.aborted) {
        this.failures.delete(taskId);
        return true;
      }
      if (await this.retry(job, error, '[pg-boss] step failed; pg-boss retries it')) return false;
      await this.giveUp(taskId, error);
      return false;
    }
    this.failures.delete(taskId);
    if (signal.aborted) return true;
    const next = followUpOf(outcome, this.deps.clock());
    if (next === null) return true;
    try {
      await this.deps.dispatch(taskId, next, priorities.followUp);
    } catch (error) {
      // The step is done but its next job could not be sent. Failing this job has pg-boss run it
      // again, which runs one more step and sends the job then (an extra step is harmless). On
      // the last attempt there is nothing left to retry with: the task waits for its next wake
      // (a person's action, or a takeover's sweep).
      const message = '[pg-boss] sending the next job failed; pg-boss retries the step';
      if (await this.retry(job, error, message)) return false;
      this.deps.logger.error('[pg-boss] sending the next job failed on the last attempt', {
        taskId,
        jobId: job.id,
        error,
      });
    }
    return true;
  }

  /** Fails the job for pg-boss to retry; false when the task has no attempt left. */
  private async retry(job: StepJob, error: unknown, message: string): Promise<boolean> {
    const { taskId } = job.data;
    const failed = Math.max(job.retryCount, this.failures.get(taskId) ?? 0);
    if (failed >= job.retryLimit) {
      this.failures.delete(taskId);
      return false;
    }
    this.deps.logger.warn(message, { taskId, jobId: job.id, error });
    this.failures.set(taskId, failed + 1);
    await this.deps.failForRetry(job, error);
    return true;
  }

  private async giveUp(taskId: string, error: unknown): Promise<void> {
    try {
      await this.deps.onGiveUp(taskId, error);
    } catch (giveUpError) {
      // The job is on its last attempt: a throw would leave the task with no job at all.
      this.deps.logger.error('[pg-boss] giving a task up failed; it will be tried again', {
        taskId,
        error: giveUpError,
        stepError: error,
      });
      const at = new Date(this.deps.clock().getTime() + (this.deps.giveUpRetryMs ?? 30_000));
      await this.dispatchLogged(taskId, { lane: 'timer', at }, priorities.followUp);
    }
  }

  private async dispatchLogged(
    taskId: string,
    followUp: NonNullable<FollowUp>,
    priority: number,
  ): Promise<void> {
    try {
      await this.deps.dispatch(taskId, followUp, priority);
    } catch (error) {
      // The task keeps its worker; the monitor's sweep finds tasks with no job only on takeover.
      this.deps.logger.error('[pg-boss] sending a task its next job failed', { taskId, error });
    }
  }
}
