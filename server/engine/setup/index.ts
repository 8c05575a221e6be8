// Setup of a task's workspace: what it needs (detection, from the tree alone), keeping what setup
// writes out of every change, and a cache of setup outputs scoped to the task's owner and keyed by
// its whole tree and toolchains, checked against its digests on restore.
// The detection's plan is `DetectedSetup` here: the loop's `SetupPlan` is what a task runs.
export {
  commitSetupTree,
  commitTreeId,
  detectSetup,
  type SetupPlan as DetectedSetup,
} from './detect-setup';
export type { SetupTree } from './detect-rule';
export { alwaysExcludedOutputs, excludeOutputs, excludePatternsFor } from './setup-outputs';
export { relocateOutput } from './relocate-output';
export { SetupCache, type CacheEntry, type RestoreResult } from './setup-cache';
export { digestOutput, linkStaysInside, type OutputCheck } from './setup-cache-digest';
export {
  setupCacheKey,
  toolchainPrograms,
  toolchainVersions,
  type SetupCacheKeyInput,
} from './setup-cache-key';
export * from './run-setup';
export { createTaskSetup, setupCacheScope, type TaskSetupOptions } from './task-setup';
