import type { StepOutcome } from '../engine/loop';

/** What a step of a task is given by whatever runs it (`stepTask` and `abandonTask`). */
export interface StepHandler {
  /**
   * Runs one step. `signal` aborts on a cancel, a lost lease and a drain; the step should then
   * settle soon (throwing is fine: an aborted step's error is no attempt).
   */
  step(taskId: string, signal: AbortSignal): Promise<StepOutcome>;
  /** Called once the step failed on every attempt; the task gets no further step afterwards. */
  onGiveUp(taskId: string, error: unknown): Promise<void>;
}

export interface JobsLogger {
  error(message: string, context: Record<string, unknown>): void;
  warn(message: string, context: Record<string, unknown>): void;
}

/** One step of one task that a backend handed to this process to run. */
export interface Lease {
  readonly taskId: string;
  /** The task's failed attempts in a row that the backend has on record (not counting this one). */
  readonly attempts: number;
  /** The last failure on record, for a give-up that has to be finished. */
  readonly lastError: string | null;
}

/**
 * Where leases come from and where their ends are recorded: the port between the step contract
 * (`StepExecutor`) and a queue. Two adapters: the local job table (SQLite, one process) and
 * pg-boss (PostgreSQL, web and workers). Each `end…` method records how the lease ended (after a
 * failed `endFinished`, `endFailed` follows); it returns false when the lease was lost before
 * (nothing was recorded), and throws when the queue could not be reached.
 */
export interface LeaseBackend<L extends Lease> {
  /**
   * Whether the lease should run a step here. False when the backend has dealt with it otherwise:
   * pg-boss sends a job for a task another worker holds on to it, and turns a wake that arrives
   * while the task's failed step waits out its backoff into that retry, due now.
   */
  admit(lease: L): Promise<boolean>;
  /**
   * Keeps the lease while its step runs, and calls `lost` when it is lost (expired, cancelled,
   * taken over). Returns the function that stops keeping it, called before the lease is ended.
   */
  hold(lease: L, lost: (reason: Error) => void): () => void;
  /** The step returned: records what comes next (the outcome's follow-up). */
  endFinished(lease: L, outcome: StepOutcome): Promise<boolean>;
  /** The step failed with attempts left: its retry comes after the backoff for `failures`. */
  endFailed(lease: L, error: unknown, failures: number): Promise<boolean>;
  /** The task was given up (`onGiveUp` ran): nothing follows. */
  endGivenUp(lease: L, error: unknown): Promise<boolean>;
  /** Giving the task up failed: the give-up (not a step) is tried again later. */
  endGiveUpFailed(lease: L, error: unknown): Promise<boolean>;
  /**
   * The step was interrupted (cancel, lost lease, drain): nothing is counted. Locally the job is
   * due again; on pg-boss whoever interrupted it sends the next job.
   */
  endInterrupted(lease: L): Promise<boolean>;
  /** Asks for one more step of the task: a wake arrived while its step ran here. */
  wake(taskId: string): Promise<void>;
}
