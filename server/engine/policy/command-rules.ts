/**
 * The runners a task's test command may start, and the options each must never be given. Every
 * run is sandboxed anyway; these rules stop a "test command" from being a thin wrapper around an
 * arbitrary program, from reading configuration or arguments from outside the workspace, and from
 * writing outside it (the sandbox would refuse, but the run would then fail confusingly).
 */
export interface RunnerRule {
  /** What the first arguments after the program must be, when it matters (e.g. `go test`). */
  readonly subcommands?: readonly string[];
  /** Options refused in any form: `-x`, `-x value`, `-xvalue`, `--long value`, `--long=value`. */
  readonly forbidden: readonly string[];
  /** Arguments that must appear somewhere (e.g. `node --test`). */
  readonly requires?: readonly string[];
  /** Arguments starting with `@` are read as argument files by this runner. */
  readonly argFiles?: boolean;
}

export const runnerRules: Readonly<Record<string, RunnerRule>> = {
  cargo: {
    subcommands: ['test', 'nextest', 'check', 'build', 'clippy'],
    forbidden: ['--config', '-Z', '--target-dir', '--manifest-path', '-C'],
  },
  go: {
    subcommands: ['test', 'vet', 'build'],
    forbidden: ['-exec', '-toolexec', '-o', '-modfile', '-overlay', '-pkgdir', '-C'],
  },
  pytest: {
    forbidden: [
      '-p',
      '--basetemp',
      '--rootdir',
      '-c',
      '--config-file',
      '-o',
      '--override-ini',
      '--confcutdir',
    ],
    argFiles: true,
  },
  unittest: { forbidden: [] },
  jest: {
    forbidden: ['--rootDir', '--roots', '--globalSetup', '--globalTeardown', '--testRunner'],
  },
  vitest: { forbidden: ['--root', '--dir', '--globalSetup'] },
  mocha: { forbidden: ['--require', '-r', '--config', '--package'] },
  node: {
    forbidden: [
      '--require',
      '-r',
      '--import',
      '--loader',
      '--experimental-loader',
      '-e',
      '--eval',
      '-p',
      '--print',
      '--env-file',
    ],
    requires: ['--test'],
  },
  npm: {
    subcommands: ['test', 't', 'run', 'run-script'],
    forbidden: [
      '--prefix',
      '-C',
      '--userconfig',
      '--globalconfig',
      '--script-shell',
      '--node-options',
      '-w',
      '--workspace',
    ],
  },
  yarn: { subcommands: ['test', 'run'], forbidden: ['--cwd', '--use-yarnrc'] },
  pnpm: { subcommands: ['test', 'run'], forbidden: ['--dir', '-C', '--config', '--filter'] },
  bun: { subcommands: ['test'], forbidden: ['--preload', '-r', '--cwd', '--config', '-c'] },
  ctest: { forbidden: ['-S', '-SP', '--script', '-D', '--build-and-test', '--test-dir'] },
  meson: { subcommands: ['test'], forbidden: ['-C', '--wrapper', '--wrap', '--gdb'] },
  make: {
    forbidden: [
      '-f',
      '--file',
      '--makefile',
      '-C',
      '--directory',
      '-E',
      '--eval',
      '-I',
      '--include-dir',
    ],
  },
  mvn: {
    forbidden: [
      '-s',
      '--settings',
      '-gs',
      '--global-settings',
      '-t',
      '--toolchains',
      '-f',
      '--file',
      '-Dmaven.repo.local',
    ],
  },
  gradle: {
    forbidden: [
      '-I',
      '--init-script',
      '-g',
      '--gradle-user-home',
      '-p',
      '--project-dir',
      '-c',
      '--settings-file',
    ],
  },
  swift: {
    subcommands: ['test'],
    forbidden: ['--package-path', '--scratch-path', '-Xswiftc', '--toolchain'],
  },
  dotnet: {
    subcommands: ['test'],
    forbidden: ['--settings', '-s', '--test-adapter-path', '-a', '--diag'],
  },
};

/** Wrappers that start a runner: the runner's own rule applies to what follows. */
export const launchers = {
  /** `python3 -m pytest …` / `python -m unittest …`: only these modules. */
  python: ['pytest', 'unittest'],
  /** `npx vitest …`: only these packages, and npx's own options are refused. */
  npx: ['jest', 'vitest', 'mocha'],
} as const;

/** Program names that mean the same runner. */
export const aliases: Readonly<Record<string, string>> = {
  python3: 'python',
  'py.test': 'pytest',
  gradlew: 'gradle',
  mvnw: 'mvn',
  nodejs: 'node',
};
