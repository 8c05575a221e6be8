export {
  sandboxCommand,
  sandboxNamespaces,
  sandboxFstab,
  sandboxSetupFailure,
  mountablePath,
  type SandboxLayout,
  type SandboxCommand,
  type SandboxCommandOptions,
  type CacheOverlay,
} from './sandbox-command';
export {
  sandboxEnv,
  toolchainCaches,
  validateExtraEnv,
  type SandboxEnvOptions,
} from './sandbox-env';
export { hostWritableMounts, writableMounts } from './host-mounts';
export {
  defaultRunLimits,
  describeLimitExceeded,
  runLimitsProblem,
  type RunLimits,
  type LimitExceeded,
} from './run-limits';
