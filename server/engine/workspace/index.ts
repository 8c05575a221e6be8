// The workspace folder's front door: what code outside the engine may import from it.
export { createSourceFromArchive } from './create-source';
export { pruneStaleWorktrees } from './prune-worktrees';
export { TaskWorktree } from './task-worktree';
export { listTreeFiles, readTreeFile } from './tree-files';
export {
  sourceGitDir,
  workspaceLayout,
  worktreePath,
  type WorkspaceLayout,
} from './workspace-layout';
