import type { Db } from '../db/client';
import type { GitUrlPolicy } from '../engine/intake';
import type { Hypothesis } from '../engine/shadow';
import type { WorkspaceLayout } from '../engine/workspace';
import type { Clock } from '../engine/ports';
import { cancelTask } from './cancel-task';
import { createTask } from './create-task';
import { getTask } from './get-task';
import { listTasks } from './list-tasks';
import { milestone } from './milestone-service';
import type { PrismaTaskStore } from './prisma-task-store';
import { getTaskDiff, getTaskPatch, listTaskFiles, readTaskFile } from './read-workspace';
import { reviewTask } from './review-task';
import { rollbackTask } from './rollback-task';
import { streamTaskChanges, streamTaskEvents } from './stream-task-events';
import { submitHypotheses } from './submit-hypotheses';
import type {
  Actor,
  CreateTaskInput,
  MilestoneAction,
  ReviewInput,
  TaskServiceApi,
} from './task-api';
import type { TaskEventBus } from './task-event-bus';

/** How the service hands tasks to the job runner. */
export interface TaskScheduler {
  /** Makes the task's next step due now (creates its job, or wakes it). */
  schedule(taskId: string): Promise<void>;
  /** Interrupts the task's running step in this process, if any. */
  interrupt(taskId: string): void;
}

/** Everything the task services use; each verb takes the part of it it needs. */
export interface TaskServiceDeps {
  readonly db: Db;
  readonly store: PrismaTaskStore;
  readonly bus: TaskEventBus;
  readonly layout: WorkspaceLayout;
  readonly scheduler: TaskScheduler;
  readonly gitPolicy: GitUrlPolicy;
  readonly clock: Clock;
  /** Whether an LLM fixer is configured (tasks may ask for `fixer: 'llm'`). */
  readonly llmAvailable?: boolean;
  /** The token cap of an LLM task that sets none. */
  readonly defaultTaskTokenBudget?: number;
  /** How often an SSE stream re-reads the database without a notification (other processes). */
  readonly eventPollMs?: number;
  /** Hypotheses a task may hold waiting to run (default 64); one more is refused (INBOX_FULL). */
  readonly maxPendingHypotheses?: number | undefined;
}

/**
 * The task services bound to one set of dependencies: each method calls its verb (one file each)
 * and takes its types from `TaskServiceApi`.
 */
export class TaskService implements TaskServiceApi {
  constructor(private readonly deps: TaskServiceDeps) {}

  createTask(input: CreateTaskInput, actor: Actor) {
    return createTask(this.deps, { input, actor });
  }

  submitHypotheses(taskId: string, hypotheses: readonly Hypothesis[], actor: Actor) {
    return submitHypotheses(this.deps, { taskId, hypotheses, actor });
  }

  getTask(taskId: string) {
    return getTask(this.deps, { taskId });
  }

  listTasks(options: { readonly limit?: number } = {}) {
    return listTasks(this.deps, options);
  }

  getDiff(taskId: string) {
    return getTaskDiff(this.deps, { taskId });
  }

  getPatch(taskId: string) {
    return getTaskPatch(this.deps, { taskId });
  }

  review(taskId: string, input: ReviewInput, actor: Actor) {
    return reviewTask(this.deps, { taskId, input, actor });
  }

  cancel(taskId: string, actor: Actor) {
    return cancelTask(this.deps, { taskId, actor });
  }

  milestone(taskId: string, action: MilestoneAction, actor: Actor) {
    return milestone(this.deps, { taskId, action, actor });
  }

  rollback(taskId: string, actor: Actor) {
    return rollbackTask(this.deps, { taskId, actor });
  }

  listFiles(taskId: string) {
    return listTaskFiles(this.deps, { taskId });
  }

  readFile(taskId: string, path: string) {
    return readTaskFile(this.deps, { taskId, path });
  }

  taskChanges(signal: AbortSignal) {
    return streamTaskChanges(this.deps, { signal });
  }

  events(taskId: string, afterSeq: number, signal: AbortSignal) {
    return streamTaskEvents(this.deps, { taskId, afterSeq, signal });
  }
}
