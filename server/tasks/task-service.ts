import { AppError } from '../errors/app-error';
import { listRemotes } from '../remotes/remotes';
import type { Hypothesis } from '../engine/shadow';
import { acceptKnownFailures } from './accept-known-failures';
import { cancelTask } from './cancel-task';
import { compareCell, compareTask } from './compare';
import { createTask } from './create-task';
import { exportApproved } from './export-approved';
import { pushTask } from './push-task';
import { getTask } from './get-task';
import { interdiff } from './interdiff';
import type { InterdiffQuery } from './interdiff-refs';
import { listTasks } from './list-tasks';
import { parseListTasksQuery, type ListTasksQueryInput } from './list-tasks-query';
import { milestone } from './milestone-service';
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
  ExportKind,
  MilestoneAction,
  PushTaskInput,
  ReviewInput,
  TaskServiceApi,
} from './task-api';
import type { TaskServiceDeps } from './task-service-deps';

// Also named from here by callers outside this folder that take them with the class (the job
// queue's scheduler, the bench).

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
