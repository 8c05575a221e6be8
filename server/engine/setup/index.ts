// Setup of a task's workspace: what it needs (detection, from the tree alone), keeping what setup
// writes out of every change, and a cache of setup outputs keyed by manifests and toolchains.
// The detection's plan is `DetectedSetup` here: the loop's `SetupPlan` is what a task runs.
export {
  commitSetupTree,
  detectSetup,
  type SetupPlan as DetectedSetup,
  type SetupTree,
} from './detect-setup';
export { alwaysExcludedOutputs, excludeOutputs, excludePatternsFor } from './setup-outputs';
export { relocateOutput } from './relocate-output';
export { SetupCache, type CacheEntry } from './setup-cache';
export {
  readManifests,
  setupCacheKey,
  toolchainPrograms,
  toolchainVersions,
  type SetupCacheKeyInput,
} from './setup-cache-key';
export * from './run-setup';
export { createTaskSetup, type TaskSetupOptions } from './task-setup';
