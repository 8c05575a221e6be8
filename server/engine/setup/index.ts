// Setup of a task's workspace: what it needs (detection, from the tree alone), keeping what setup
// writes out of every change, and a cache of setup outputs keyed by manifests and toolchains.
export { commitSetupTree, detectSetup, type SetupPlan, type SetupTree } from './detect-setup';
export { alwaysExcludedOutputs, excludeOutputs, excludePatternsFor } from './setup-outputs';
export {
  SetupCache,
  readManifests,
  relocateOutput,
  setupCacheKey,
  toolchainPrograms,
  toolchainVersions,
  type CacheEntry,
  type SetupCacheKeyInput,
} from './setup-cache';
export * from './run-setup';
export { createTaskSetup, type TaskSetupOptions } from './task-setup';
