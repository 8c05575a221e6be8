import { join, resolve } from 'node:path';
import { AppError } from '../../errors/app-error';

/** Where workspaces live under the data directory: stable paths derived from ids, nothing else. */
export interface WorkspaceLayout {
  readonly sourcesDir: string;
  readonly worktreesDir: string;
  /** Removed worktrees waiting to be deleted (see worktree-trash.ts); beside worktreesDir, so a
   * rename moves one there. */
  readonly trashDir: string;
}

export function workspaceLayout(dataDir: string): WorkspaceLayout {
  // Absolute, so no path handed to git can ever be read as an option.
  const root = resolve(dataDir);
  return {
    sourcesDir: join(root, 'sources'),
    worktreesDir: join(root, 'worktrees'),
    trashDir: join(root, 'trash', 'worktrees'),
  };
}

const idPattern = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Ids become path segments and ref names, so they are restricted to a safe alphabet. */
export function assertWorkspaceId(kind: 'source' | 'task', id: string): void {
  if (!idPattern.test(id)) {
    throw new AppError('INVALID_ARGUMENT', `${kind} id must match ${idPattern.source}`, {
      details: { id },
    });
  }
}

export const sourceGitDir = (layout: WorkspaceLayout, sourceId: string): string =>
  join(layout.sourcesDir, `${sourceId}.git`);

export const worktreePath = (layout: WorkspaceLayout, taskId: string): string =>
  join(layout.worktreesDir, taskId);

export const taskRef = (taskId: string): string => `refs/shadowbox/tasks/${taskId}`;

const commitId = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export function assertCommitId(sha: string): void {
  if (!commitId.test(sha)) {
    throw new AppError('INVALID_ARGUMENT', 'expected a full commit id', { details: { sha } });
  }
}
