// The landing folder's front door: an approved change taken to the team's repository.
export { pushCommits, type PushOptions, type PushResult } from './push-commits';
export {
  forgeKinds,
  isForgeKind,
  openOrUpdatePullRequest,
  type ForgeKind,
  type ForgeRepository,
  type PullRequest,
} from './forge';
export { giteaRepository } from './gitea-forge';
export { githubRepository } from './github-forge';
export {
  applyInOrder,
  diffCommits,
  isAncestor,
  mergeCommits,
  openBatchRepo,
  replayOnto,
  treeChanges,
  type BatchCommitter,
  type ConflictFile,
  type MergeOutcome,
  type TreeChanges,
} from './batch-git';
export { findCulprits, type CulpritSearch, type TryMembers } from './find-culprits';
