import { existsSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../errors/app-error';

/**
 * Toolchain locators passed through from the host when set. Without them a fresh HOME would hide
 * rustup's toolchains, pyenv's interpreters or a Go root, and every run would fail before testing.
 * PYTEST_DISABLE_PLUGIN_AUTOLOAD is the host's choice in the same way: an interpreter shared by
 * many projects may carry plugins none of them use, which pytest imports at every start (on
 * these machines hypothesis's took 1.8 CPU-seconds per run). A task that needs a plugin names it
 * with `-p`, which works either way.
 */
const passedThrough = [
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'CARGO_HOME',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'GOROOT',
  'GOPATH',
  'GOCACHE',
  'GOMODCACHE',
  'GOFLAGS',
  'JAVA_HOME',
  'PYTEST_DISABLE_PLUGIN_AUTOLOAD',
] as const;

/**
 * Names a task may not set: they would undo the sandbox's own choices. PATH and the toolchain
 * roots decide what the sandbox's root shows (see root-paths.ts): only the host's may.
 */
const reserved = new Set([
  'HOME',
  'TMPDIR',
  'PATH',
  'RUSTUP_HOME',
  'CARGO_HOME',
  'PYENV_ROOT',
  'GOROOT',
  'JAVA_HOME',
]);
const validName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What makes package managers fail at once in a run without a network instead of waiting on DNS
 * (`npx` of a package the workspace lacks waited 70 s for the registry's address). pnpm reads
 * npm's variables; Go needs no GOFLAGS change (the host's passes through as it is). These are not
 * reserved: a task's own variables come after them and may change them, which reaches no network
 * (a run has none) and only costs that task the wait.
 */
export const offlineEnv: Readonly<Record<string, string>> = {
  npm_config_offline: 'true',
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  PIP_NO_INDEX: '1',
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
  CARGO_NET_OFFLINE: 'true',
  GOPROXY: 'off',
  GOSUMDB: 'off',
  UV_OFFLINE: '1',
  YARN_ENABLE_OFFLINE_MODE: '1',
};

export interface SandboxEnvOptions {
  /** A per-run directory: HOME points here, so runs never read or write the server's home. */
  readonly home: string;
  readonly tmpdir: string;
  /** Per-task variables. */
  readonly extra?: Readonly<Record<string, string>>;
  /**
   * A run without a network (every test and build run; default true) gets `offlineEnv`. Setup
   * commands, which reach the network through the egress proxy, pass false.
   */
  readonly offline?: boolean;
  readonly host?: Readonly<Record<string, string | undefined>>;
}

export function validateExtraEnv(extra: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(extra)) {
    if (!validName.test(name)) {
      throw new AppError('INVALID_ARGUMENT', `environment variable name '${name}' is not valid`);
    }
    if (reserved.has(name)) {
      throw new AppError('INVALID_ARGUMENT', `environment variable ${name} is set by the sandbox`);
    }
    if (value.includes('\0')) {
      throw new AppError('INVALID_ARGUMENT', `environment variable ${name} contains a NUL byte`);
    }
  }
}

/** The complete environment of a sandboxed run: an allowlist, never the server's environment. */
export function sandboxEnv(options: SandboxEnvOptions): Record<string, string> {
  const host = options.host ?? process.env;
  const env: Record<string, string> = {
    PATH: host.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: options.home,
    TMPDIR: options.tmpdir,
    LANG: host.LANG ?? 'C.UTF-8',
  };
  for (const name of passedThrough) {
    const value = host[name];
    if (value !== undefined) env[name] = value;
  }
  // rustup and cargo default to $HOME/.rustup and $HOME/.cargo: keep pointing at the real ones.
  const hostHome = host.HOME;
  if (hostHome !== undefined) {
    for (const [name, dir] of [
      ['RUSTUP_HOME', '.rustup'],
      ['CARGO_HOME', '.cargo'],
    ] as const) {
      const candidate = path.join(hostHome, dir);
      if (env[name] === undefined && existsSync(candidate)) env[name] = candidate;
    }
  }
  if (options.offline ?? true) Object.assign(env, offlineEnv);
  if (options.extra !== undefined) {
    validateExtraEnv(options.extra);
    Object.assign(env, options.extra);
  }
  return env;
}

/**
 * Directories of the environment that toolchains write to even when they only read: cargo takes
 * its package-cache lock and updates its usage database in CARGO_HOME on every build. Each run
 * gets them through a private overlay, so the caches stay warm and the host's copy unchanged.
 */
export function toolchainCaches(env: Readonly<Record<string, string>>): string[] {
  return [env.CARGO_HOME].filter((dir): dir is string => dir !== undefined && existsSync(dir));
}
