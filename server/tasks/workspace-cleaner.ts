import { AppError } from '../errors/app-error';
import { TaskWorktree, sourceGitDir, type WorkspaceLayout } from '../engine/workspace';
import type { LoopTask } from '../engine/loop';

/** Worktree operations the service does outside the loop (a reject rolls back). */
export function createWorkspaceCleaner(layout: WorkspaceLayout) {
  return {
    async rollback(task: LoopTask, sha: string): Promise<void> {
      if (task.sourceId === null) return;
      const worktree = await TaskWorktree.open({
        layout,
        source: { id: task.sourceId, gitDir: sourceGitDir(layout, task.sourceId) },
        taskId: task.id,
      }).catch((error: unknown) => {
        // A web process of a scale-out deployment holds no worktree: the recorded checkpoint is
        // what counts, and a worker that steps the task again moves its worktree there.
        if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
        throw error;
      });
      await worktree?.rollbackTo(sha);
    },
  };
}
