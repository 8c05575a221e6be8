import { rm } from 'node:fs/promises';
import { AppError } from '../../errors/app-error';
import type { GitUrlPolicy } from '../intake/git-url-policy';
import type { IntakeCaps } from '../intake/intake-caps';
import { createSourceFromGit } from '../workspace/create-source';
import { git } from '../workspace/git';
import { withRepoLock } from '../workspace/repo-lock';
import { TaskWorktree } from '../workspace/task-worktree';
import { sourceGitDir, worktreePath, type WorkspaceLayout } from '../workspace/workspace-layout';
import { listTreeFiles, readTreeFile } from '../workspace/tree-files';
import type { LoopTask, LoopWorkspace, WorkspacePort } from './loop-ports';

export interface GitWorkspacesOptions {
  readonly layout: WorkspaceLayout;
  readonly caps?: Partial<IntakeCaps>;
  readonly gitPolicy?: GitUrlPolicy;
}

/** The id of the bare repository a git task clones into (archives get theirs at upload). */
export const gitSourceId = (taskId: string): string => `git-${taskId}`;

/** The WorkspacePort on real git: a bare repository per source, a worktree per task. */
export function createGitWorkspaces(options: GitWorkspacesOptions): WorkspacePort {
  const { layout } = options;
  const sourceOf = (sourceId: string) => ({ id: sourceId, gitDir: sourceGitDir(layout, sourceId) });

  return {
    async prepare(task, events) {
      let sourceId = task.sourceId;
      let commit = task.baselineCommit;
      if (sourceId === null || commit === null) {
        if (task.source.kind !== 'git') {
          throw new AppError('INTERNAL', `archive task ${task.id} has no imported source`);
        }
        sourceId = gitSourceId(task.id);
        // Only reached when the database knows no source: anything there is a crashed attempt's.
        await rm(sourceGitDir(layout, sourceId), { recursive: true, force: true });
        const created = await createSourceFromGit({
          layout,
          sourceId,
          url: task.source.url,
          ...(task.source.ref === null ? {} : { ref: task.source.ref }),
          ...(options.caps === undefined ? {} : { caps: options.caps }),
          ...(options.gitPolicy === undefined ? {} : { policy: options.gitPolicy }),
          events,
        });
        if (!created.ok)
          return { ok: false, code: created.error.code, message: created.error.message };
        commit = created.commit;
      }
      // A worktree left by a crashed attempt is replaced, never trusted.
      await removeWorktree(layout, sourceOf(sourceId).gitDir, task.id);
      const worktree = await TaskWorktree.create({
        layout,
        source: sourceOf(sourceId),
        taskId: task.id,
        commit,
      });
      return { ok: true, sourceId, baselineCommit: commit, workspace: asLoopWorkspace(worktree) };
    },

    repository(task: LoopTask) {
      const at = (): { gitDir: string; commit: string } => {
        if (task.sourceId === null || task.checkpointSha === null) {
          throw new AppError('INVALID_STATE', `task ${task.id} has no checkpoint yet`);
        }
        return { gitDir: sourceGitDir(layout, task.sourceId), commit: task.checkpointSha };
      };
      return {
        async listFiles() {
          const { gitDir, commit } = at();
          return (await listTreeFiles(gitDir, commit)).map((f) => f.path);
        },
        readFile(path) {
          const { gitDir, commit } = at();
          return readTreeFile(gitDir, commit, path);
        },
      };
    },

    async open(task: LoopTask) {
      if (task.sourceId === null) throw new AppError('NOT_FOUND', `task ${task.id} has no source`);
      return asLoopWorkspace(
        await TaskWorktree.open({ layout, source: sourceOf(task.sourceId), taskId: task.id }),
      );
    },
  };
}

function asLoopWorkspace(worktree: TaskWorktree): LoopWorkspace {
  return {
    path: worktree.path,
    checkpoint: (label, paths) => worktree.checkpoint(label, paths),
    rollbackTo: (sha, options) => worktree.rollbackTo(sha, options),
    diffBetween: (from, to) => worktree.diffBetween(from, to),
  };
}

async function removeWorktree(
  layout: WorkspaceLayout,
  gitDir: string,
  taskId: string,
): Promise<void> {
  await withRepoLock(gitDir, async () => {
    await rm(worktreePath(layout, taskId), { recursive: true, force: true });
    // Drops the registration of the directory just removed (the task ref is rewritten on create).
    await git({ gitDir, args: ['worktree', 'prune', '--expire=now'] });
  });
}
