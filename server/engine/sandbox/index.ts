export {
  sandboxCommand,
  sandboxNamespaces,
  sandboxSetupFailure,
  type SandboxLayout,
  type SandboxCommand,
  type SandboxCommandOptions,
  type SandboxPrograms,
  type CacheOverlay,
} from './sandbox-command';
export {
  sandboxEnv,
  toolchainCaches,
  validateExtraEnv,
  type SandboxEnvOptions,
} from './sandbox-env';
export {
  probeSandbox,
  type ProbeResult,
  type SandboxCapabilities,
  type Enforcement,
} from './probe';
export { prepareSandbox, type SandboxHost, type PreparedSandbox } from './sandbox-host';
export { watchRun, type RunWatch, type RunWatchOptions } from './run-watch';
export { settledTreeUsage, treeUsage, type TreeUsage } from './tree-usage';
export { mountablePath, type SandboxRoot } from './sandbox-root';
export {
  handToSandbox,
  sandboxIdentity,
  workspaceIdentity,
  type SandboxIdentity,
} from './sandbox-identity';
export { seccompArch, seccompProgram, deniedSyscalls } from './seccomp-filter';
export {
  defaultRunLimits,
  describeLimitExceeded,
  runLimitsProblem,
  runLimitsAboveCeiling,
  clampRunLimits,
  runLimitBounds,
  runLimitNames,
  pickRunLimits,
  type RunLimits,
  type LimitExceeded,
} from './run-limits';
