import { readableError, readableText } from '../../errors/readable-error';
import type { LoopTask, TaskLoopStore } from './loop-ports';
import { again, done, type LoopDeps, type StepContext, type StepOutcome } from './step-context';
import { recordBaseline } from './step-baseline';
import { reopenAfterReview, runIteration } from './step-iterate';
import { prepareWorkspace, setUpWorkspace } from './step-setup';
import { ensureWorkspace } from './step-workspace';
import type { TaskEvent } from './task-events';
import { activeStatuses } from './task-status';

export type { LoopDeps, StepOutcome } from './step-context';
export { summarize } from './step-values';

export const maxIterationsCeiling = 10;
const defaultRunTimeoutMs = 10 * 60 * 1000;

/**
 * Advances one task by one phase of its loop and says what should happen next. Every phase reads
 * the task afresh and is safe to run again after a crash: the worktree is first reset to the last
 * checkpoint the database knows, so a half-applied winner or a half-run baseline leaves no trace.
 */
export async function stepTask(
  deps: LoopDeps,
  taskId: string,
  signal: AbortSignal,
): Promise<StepOutcome> {
  const step = new TaskStep(deps, taskId, signal);
  return step.run();
}

/**
 * Ends a task whose steps keep failing (or that cannot resume after a restart): the worktree goes
 * back to the baseline commit and the task ends `interrupted` with the reason, stored as one
 * readable line (a described error's stack frames and the server's own paths are cut).
 *
 * A worktree that cannot be rolled back does not keep the task alive: the give-up is the last
 * resort, and a rollback that failed the steps would fail every give-up after them too (the
 * queue would retry it forever). The task ends all the same, saying so; only a store that cannot
 * be written makes this throw.
 */
export async function abandonTask(deps: LoopDeps, taskId: string, reason: string): Promise<void> {
  const task = await deps.store.load(taskId);
  if (!activeStatuses.has(task.status)) return;
  const step = new TaskStep(deps, taskId, new AbortController().signal);
  await step.end(task, { type: 'task.interrupted', reason }, { rollbackMayFail: true });
}

class TaskStep implements StepContext {
  constructor(
    readonly deps: LoopDeps,
    readonly taskId: string,
    readonly signal: AbortSignal,
  ) {}
  emit(event: TaskEvent, changes?: Parameters<TaskLoopStore['emit']>[2]): Promise<void> {
    return this.deps.store.emit(this.taskId, event, changes);
  }
  async run(): Promise<StepOutcome> {
    const task = await this.deps.store.load(this.taskId);
    if (task.cancelRequestedBy !== null && activeStatuses.has(task.status)) {
      return this.end(task, { type: 'task.cancelled', by: task.cancelRequestedBy });
    }
    if (!activeStatuses.has(task.status)) return reopenAfterReview(this, task);
    const budgetEnd = this.budgetEnd(task);
    if (budgetEnd !== null && budgetEnd <= this.deps.clock.now()) {
      return this.end(task, {
        type: 'task.failed',
        reason: `the wall-clock budget of ${Math.round(task.maxWallClockMs / 1000)} s is spent`,
      });
    }
    const unready = await ensureWorkspace(this, task);
    if (unready !== null) return unready;
    switch (task.status) {
      case 'queued':
        await this.emit({ type: 'task.preparing' }, { startedAt: this.deps.clock.now() });
        return again;
      case 'preparing':
        return prepareWorkspace(this, task);
      case 'setup':
        return setUpWorkspace(this, task);
      case 'baseline':
        return recordBaseline(this, task);
      default:
        return runIteration(this, task);
    }
  }
  /**
   * When the wall-clock budget ends: counted from the first step, or, in a review round, from the
   * round's start (the time a person took to review is not the loop's to spend).
   */
  budgetEnd(task: LoopTask): Date | null {
    const round = task.currentIteration;
    const from = round !== null && round.reviewRound > 0 ? round.startedAt : task.startedAt;
    return from === null ? null : new Date(from.getTime() + task.maxWallClockMs);
  }
  /** A run's timeout: `limit` (default: the per-run one), capped by the budget left. */
  runTimeout(task: LoopTask, limit = this.deps.runTimeoutMs ?? defaultRunTimeoutMs): number {
    const end = this.budgetEnd(task);
    if (end === null) return limit;
    return Math.max(1000, Math.min(limit, end.getTime() - this.deps.clock.now().getTime()));
  }
  /** A step interrupted by its signal: a cancel ends the task; a shutdown leaves it to resume. */
  async aborted(task: LoopTask): Promise<StepOutcome> {
    const fresh = await this.deps.store.load(this.taskId);
    if (fresh.cancelRequestedBy !== null) {
      return this.end(task, { type: 'task.cancelled', by: fresh.cancelRequestedBy });
    }
    return again;
  }
  /** Every non-success outcome rolls the worktree back to the baseline commit, then ends the task. */
  async end(
    task: LoopTask,
    event: Extract<TaskEvent, { type: 'task.failed' | 'task.cancelled' | 'task.interrupted' }>,
    options: { readonly rollbackMayFail?: boolean } = {},
  ): Promise<StepOutcome> {
    let notRolledBack: string | null = null;
    if (task.baselineCommit !== null && task.sourceId !== null) {
      const workspace = await this.deps.workspaces.open(task).catch(() => null);
      if (workspace !== null) {
        let rolledBack = false;
        try {
          await workspace.rollbackTo(task.baselineCommit);
          rolledBack = true;
        } catch (error) {
          if (options.rollbackMayFail !== true) throw error;
          notRolledBack = `; its worktree could not be rolled back to the baseline (${readableError(error)})`;
        }
        // Outside the try: a store that cannot be written is not a worktree that cannot be reset.
        if (rolledBack) await this.emit({ type: 'task.rolled_back', to: task.baselineCommit });
      }
    }
    // What is stored and shown: never a stack trace or a path into the server's code.
    const ended =
      event.type === 'task.cancelled'
        ? event
        : { ...event, reason: readableText(`${event.reason}${notRolledBack ?? ''}`) };
    const reason = ended.type === 'task.cancelled' ? `cancelled by ${ended.by}` : ended.reason;
    await this.emit(ended, {
      finishedAt: this.deps.clock.now(),
      error: reason,
      ...(task.baselineCommit === null ? {} : { checkpointSha: task.baselineCommit }),
    });
    return done;
  }
  required<T>(value: T | null, what: string): T {
    if (value === null) throw new Error(`task ${this.taskId} has no ${what}`);
    return value;
  }
}
