import { existsSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../errors/app-error';

/**
 * Toolchain locators passed through from the host when set. Without them a fresh HOME would hide
 * rustup's toolchains, pyenv's interpreters or a Go root, and every run would fail before testing.
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

export interface SandboxEnvOptions {
  /** A per-run directory: HOME points here, so runs never read or write the server's home. */
  readonly home: string;
  readonly tmpdir: string;
  /** Per-task variables. */
  readonly extra?: Readonly<Record<string, string>>;
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
