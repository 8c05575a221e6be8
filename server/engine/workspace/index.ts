// The workspace folder's front door: what code outside the engine may import from it.
export { bundleChain, type BundleHead, type BundleStore, type StoredBundle } from './bundle-store';
export { createSourceFromArchive } from './create-source';
export {
  checkpointChain,
  createBundle,
  formatSeries,
  withExportRepo,
  type ExportOptions,
  type ExportStep,
  type GitIdentity,
} from './export-commits';
export { commitTree, treeWithEdits, type TreeEdit } from './hypothesis-tree';
export { credentialEnv, scrubSecret, type GitCredential } from './git-credential';
// The one hardened way to run git on the host, for code outside the engine that must (the miner).
export { git as hardenedGit, type GitRun } from './git';
export { pruneStaleWorktrees } from './prune-worktrees';
export { keepBundle, restoreSource } from './source-bundles';
export { importDirectory, initBare, type SourceRepo } from './source-repo';
export { TaskWorktree } from './task-worktree';
export { listTreeFiles, readTreeFile } from './tree-files';
export {
  sourceGitDir,
  workspaceLayout,
  worktreePath,
  type WorkspaceLayout,
} from './workspace-layout';
export { trashEmptied } from './worktree-trash';
export { diffCommits } from './worktree-diff';
