export {
  sandboxCommand,
  sandboxSetupFailure,
  mountablePath,
  type SandboxLayout,
  type SandboxCommand,
} from './sandbox-command';
export { sandboxEnv, validateExtraEnv, type SandboxEnvOptions } from './sandbox-env';
