export {
  sandboxCommand,
  sandboxFstab,
  sandboxSetupFailure,
  mountablePath,
  type SandboxLayout,
  type SandboxCommand,
  type SandboxCommandOptions,
} from './sandbox-command';
export { sandboxEnv, validateExtraEnv, type SandboxEnvOptions } from './sandbox-env';
export { hostWritableMounts, writableMounts } from './host-mounts';
