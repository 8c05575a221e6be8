import { recordAudit } from '../audit/audit-log';
import { actorLabel, auditedAs } from '../auth/actor';
import { AppError } from '../errors/app-error';
import type { LoopTask } from '../engine/loop';
import { activeStatuses, canApply } from '../engine/lifecycle';
import { cancelTask } from './cancel-task';
import { getTask } from './get-task';
import { requireTask } from './task-access';
import type { Actor, TaskView } from './task-api';
import type { TaskServiceDeps } from './task-service-deps';
import { createWorkspaceCleaner } from './workspace-cleaner';
import { refuseWhileApproved } from './approved-guard';

export type RollbackTaskDeps = Pick<
  TaskServiceDeps,
  'db' | 'store' | 'layout' | 'clock' | 'scheduler'
>;

export interface RollbackTaskOptions {
  readonly taskId: string;
  readonly actor: Actor;
}

/**
 * Gives up on the task's fix: a running task is cancelled; a task under review has its worktree
 * reset to the baseline and ends cancelled (an approved one must be reopened first).
 */
export async function rollbackTask(
  deps: RollbackTaskDeps,
  { taskId, actor }: RollbackTaskOptions,
): Promise<TaskView> {
  await requireTask(deps.db, taskId, actor, 'cancel');
  const task = await deps.store.load(taskId);
  refuseWhileApproved(taskId, task.status, 'it can be rolled back');
  if (activeStatuses.has(task.status)) return cancelTask(deps, { taskId, actor });
  if (!canApply(task.status, 'task.abandoned')) {
    throw new AppError(
      'INVALID_STATE',
      `task ${taskId} is ${task.status}: there is nothing to roll back`,
    );
  }
  const baseline = task.baselineCommit;
  if (baseline === null) throw new AppError('INTERNAL', `task ${taskId} has no baseline commit`);
  const by = actorLabel(actor);
  // The status changes first (a compare-and-set through the reducer), so a concurrent step
  // that reopened the task makes this refuse instead of resetting a worktree in use.
  await deps.store.transact(taskId, async (tx, emit) => {
    await recordAudit(tx, { ...auditedAs(actor), action: 'task.rollback', target: taskId });
    await emit(
      { type: 'task.abandoned', by },
      { finishedAt: deps.clock.now(), error: `rolled back by ${by}` },
    );
  });
  await resetToBaseline(deps, task, baseline);
  return getTask(deps, { taskId, actor });
}

/** Resets the task's worktree to `baseline` and records it (after a reject or a rollback). */
export async function resetToBaseline(
  deps: Pick<TaskServiceDeps, 'store' | 'layout'>,
  task: LoopTask,
  baseline: string,
): Promise<void> {
  await createWorkspaceCleaner(deps.layout).rollback(task, baseline);
  await deps.store.emit(
    task.id,
    { type: 'task.rolled_back', to: baseline },
    { checkpointSha: baseline },
  );
}
