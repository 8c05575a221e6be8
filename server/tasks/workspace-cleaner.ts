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
      });
      await worktree.rollbackTo(sha);
    },
  };
}
