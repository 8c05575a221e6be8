import type { Db } from '../db/client';
import { AppError } from '../errors/app-error';
import { listRemotes } from '../remotes/remotes';
import type { SecretBox } from '../remotes/secret-box';
import type { GitUrlPolicy } from '../engine/intake';
import type { Hypothesis } from '../engine/shadow';
import type { BundleStore, WorkspaceLayout } from '../engine/workspace';
import type { Clock } from '../engine/ports';
import { acceptKnownFailures } from './accept-known-failures';
import { cancelTask } from './cancel-task';
import { compareCell, compareTask } from './compare';
import { createTask } from './create-task';
import { exportApproved, type ExportKind } from './export-approved';
import { pushTask, type PushTaskInput } from './push-task';
import { getTask } from './get-task';
import { interdiff } from './interdiff';
import type { InterdiffQuery } from './interdiff-refs';
import { listTasks } from './list-tasks';
import { parseListTasksQuery, type ListTasksQueryInput } from './list-tasks-query';
import { milestone } from './milestone-service';
import type { PrismaTaskStore } from './prisma-task-store';
import { getTaskDiff, getTaskPatch, listTaskFiles, readTaskFile } from './read-workspace';
import { promoteHypothesis } from './promote-hypothesis';
import type { PromoteInput } from './promote-input';
import { reopenTask } from './reopen-task';
import { reviewTask } from './review-task';
import { rollbackTask } from './rollback-task';
import { sendToReview } from './send-to-review';
import { serverPathMask } from './server-paths';
import { streamTaskChanges, streamTaskEvents } from './stream-task-events';
import { submitHypotheses } from './submit-hypotheses';
import { requireTask, visibilityCache } from './task-access';
import type {
  Actor,
  CreateTaskInput,
  MilestoneAction,
  ReviewInput,
  TaskServiceApi,
} from './task-api';
import type { TaskEventBus } from './task-event-bus';
import type { RunLimitCeilings } from './task-input-checks';

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

/**
 * The task services bound to one set of dependencies: each method calls its verb (one file each)
 * and takes its types from `TaskServiceApi`. Reads check here that the actor sees the task
 * (task-access.ts); each changing verb checks its own right inside its transaction.
 */
export class TaskService implements TaskServiceApi {
  constructor(private readonly deps: TaskServiceDeps) {}

  createTask(input: CreateTaskInput, actor: Actor) {
    return createTask(this.deps, { input, actor });
  }

  submitHypotheses(taskId: string, hypotheses: readonly Hypothesis[], actor: Actor) {
    return submitHypotheses(this.deps, { taskId, hypotheses, actor });
  }

  getTask(taskId: string, actor: Actor) {
    return getTask(this.deps, { taskId, actor });
  }

  listTasks(actor: Actor, query: ListTasksQueryInput = {}) {
    return listTasks(this.deps, { query: parseListTasksQuery(query), actor });
  }

  async getDiff(taskId: string, actor: Actor) {
    await requireTask(this.deps.db, taskId, actor, 'see');
    return getTaskDiff(this.deps, { taskId });
  }

  async getPatch(taskId: string, actor: Actor) {
    await requireTask(this.deps.db, taskId, actor, 'see');
    return getTaskPatch(this.deps, { taskId });
  }

  review(taskId: string, input: ReviewInput, actor: Actor) {
    return reviewTask(this.deps, { taskId, input, actor });
  }

  reopen(taskId: string, actor: Actor) {
    return reopenTask(this.deps, { taskId, actor });
  }

  cancel(taskId: string, actor: Actor) {
    return cancelTask(this.deps, { taskId, actor });
  }

  sendToReview(taskId: string, actor: Actor) {
    return sendToReview(this.deps, { taskId, actor });
  }

  acceptKnownFailures(taskId: string, ids: readonly string[], actor: Actor) {
    return acceptKnownFailures(this.deps, { taskId, ids, actor });
  }

  promote(taskId: string, input: PromoteInput, actor: Actor) {
    return promoteHypothesis(this.deps, { taskId, actor, input });
  }

  interdiff(taskId: string, query: InterdiffQuery, actor: Actor) {
    return interdiff(this.deps, { taskId, actor, ...query });
  }

  milestone(taskId: string, action: MilestoneAction, actor: Actor) {
    return milestone(this.deps, { taskId, action, actor });
  }

  rollback(taskId: string, actor: Actor) {
    return rollbackTask(this.deps, { taskId, actor });
  }

  compare(taskId: string, iteration: number | undefined, actor: Actor) {
    return compareTask(this.deps, { taskId, iteration, actor });
  }

  compareCell(taskId: string, runId: string, test: string, actor: Actor) {
    return compareCell(this.deps, { taskId, runId, test, actor });
  }

  push(taskId: string, input: PushTaskInput, actor: Actor) {
    const { secrets } = this.deps;
    if (secrets === undefined) {
      throw new AppError('INVALID_STATE', 'this process has no key to open remotes with');
    }
    return pushTask({ ...this.deps, secrets }, taskId, input, actor);
  }

  async listRemotes(_actor: Actor) {
    return (await listRemotes(this.deps.db)).map(({ name, url, forge }) => ({ name, url, forge }));
  }

  async exportApproved(taskId: string, what: ExportKind, actor: Actor) {
    await requireTask(this.deps.db, taskId, actor, 'see');
    return exportApproved(this.deps, taskId, what);
  }

  async listFiles(taskId: string, actor: Actor) {
    await requireTask(this.deps.db, taskId, actor, 'see');
    return listTaskFiles(this.deps, { taskId });
  }

  async readFile(taskId: string, path: string, actor: Actor) {
    await requireTask(this.deps.db, taskId, actor, 'see');
    return readTaskFile(this.deps, { taskId, path });
  }

  async *taskChanges(signal: AbortSignal, actor: Actor) {
    const sees = visibilityCache(this.deps.db, actor);
    for await (const change of streamTaskChanges(this.deps, { signal })) {
      if (await sees(change.taskId)) yield change;
    }
  }

  async *events(taskId: string, afterSeq: number, signal: AbortSignal, actor: Actor) {
    await requireTask(this.deps.db, taskId, actor, 'see');
    const mask = serverPathMask(this.deps.layout, actor, taskId);
    for await (const event of streamTaskEvents(this.deps, { taskId, afterSeq, signal })) {
      yield mask(event);
    }
  }
}
