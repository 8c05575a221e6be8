import type { LoopTask } from './loop-ports';
import type { StepContext, StepOutcome } from './step-context';
import { runTaskSetup } from './step-setup';
import { setupFailureReason } from './step-values';
import type { TaskStatus } from './task-status';

// Before a phase that runs in the worktree: the workspace must be on this worker's disk.

/** The phases that use the task's worktree (preparing makes it; the others do not touch it). */
const worktreePhases: ReadonlySet<TaskStatus> = new Set([
  'setup',
  'baseline',
  'iterating',
  'awaiting_hypotheses',
]);

/**
 * Makes sure the task's repository and worktree are here, at the checkpoint the database knows: a
 * worker that takes a task over (its first worker died) has neither, and one that ran it earlier
 * may hold an older checkpoint. A worktree made afresh after the setup ran lacks the setup's
 * outputs, so the setup runs again first (restored from this machine's cache when it can be).
 * Returns how the step ends when it cannot go on (setup failed, step aborted), else null.
 */
export async function ensureWorkspace(
  step: StepContext,
  task: LoopTask,
): Promise<StepOutcome | null> {
  if (!worktreePhases.has(task.status) || task.sourceId === null || task.checkpointSha === null) {
    return null;
  }
  // In the setup phase itself the setup step installs: nothing to redo here.
  const setupRan = task.setup !== null && task.status !== 'setup';
  const { workspaces } = step.deps;
  const ensured = await workspaces.ensure(task, { setupRan });
  const { workspace, restored } = ensured;
  if (restored !== null) {
    await step.emit(
      {
        type: 'workspace.restored',
        checkpointSha: task.checkpointSha,
        worktreePath: workspace.path,
        ...restored,
      },
      { worktreePath: workspace.path },
    );
  }
  const setup = step.deps.setup;
  if (!ensured.setupPending || !setupRan || setup === undefined) return null;
  const ran = await runTaskSetup(step, task, setup, workspace);
  if (ran === null) return step.aborted(task);
  // The record is this worker's (its workspace paths in `env`): later runs read it.
  await step.emit({ type: 'setup.finished', ...ran.result }, { setup: ran.record });
  if (!ran.result.ok) {
    return step.end(task, { type: 'task.failed', reason: setupFailureReason(ran.result) });
  }
  await workspaces.setupRestored(task);
  return null;
}
