import type { Db } from '../db/client';
import type { SecretBox } from '../remotes/secret-box';
import type { GitUrlPolicy } from '../engine/intake';
import type { BundleStore, WorkspaceLayout } from '../engine/workspace';
import type { Clock } from '../engine/ports';
import type { PrismaTaskStore } from './prisma-task-store';
import type { TaskEventBus } from './task-event-bus';
import type { RunLimitCeilings } from './task-input-checks';

// What the task verbs take, apart from the class that binds them (task-service.ts): a verb
// imports this, never its binder, so the verbs and TaskService form no circle.

/** How the service hands tasks to the job runner. */
export interface TaskScheduler {
  /** Makes the task's next step due now (creates its job, or wakes it). */
  schedule(taskId: string): Promise<void>;
  /**
   * Interrupts the task's running step, if any: in this process (SQLite), or on whichever worker
   * runs it (PostgreSQL, hence the promise).
   */
  interrupt(taskId: string): void | Promise<void>;
}

/** Everything the task services use; each verb takes the part of it it needs. */
export interface TaskServiceDeps {
  readonly db: Db;
  readonly store: PrismaTaskStore;
  readonly bus: TaskEventBus;
  readonly layout: WorkspaceLayout;
  /** Where an uploaded archive's source is kept for the workers (PostgreSQL: no shared disk). */
  readonly bundles?: BundleStore;
  readonly scheduler: TaskScheduler;
  readonly gitPolicy: GitUrlPolicy;
  /** Opens remotes' credentials for a push (`SHADOWBOX_SECRETS_KEY` or the data directory's key). */
  readonly secrets?: SecretBox;
  readonly clock: Clock;
  /** Whether an LLM fixer is configured (tasks may ask for `fixer: 'llm'`). */
  readonly llmAvailable?: boolean;
  /** The token cap of an LLM task that sets none. */
  readonly defaultTaskTokenBudget?: number;
  /** How often an SSE stream re-reads the database without a notification (other processes). */
  readonly eventPollMs?: number;
  /** Hypotheses a task may hold waiting to run (default 64); one more is refused (INBOX_FULL). */
  readonly maxPendingHypotheses?: number | undefined;
  /**
   * The most a task's run caps may be (the server's caps; an admin's up to the hard maximum).
   * Default: `defaultRunLimits` for both.
   */
  readonly runLimitCeilings?: RunLimitCeilings | undefined;
  /** Nobody approves a diff whose winning hypothesis they (or their tokens) submitted. */
  readonly requireSecondReviewer?: boolean | undefined;
  /** How many times reviewers may request changes on one task (default 5). */
  readonly maxReviewRounds?: number | undefined;
}
