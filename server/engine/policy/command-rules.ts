/**
 * The programs a task's test command may start, and what each must never be given. The sandbox
 * (no capabilities, a minimal locked root, no network) is the boundary: these rules refuse only
 * what would escape it or defeat the verdict — a "test command" that is a thin wrapper around an
 * arbitrary program (a shell, `go test -exec`, a runner override), configuration or arguments
 * read from outside the workspace, files written outside it (the sandbox would refuse, but the run
 * would then fail confusingly). Build tools and runners keep their ordinary options.
 */
/** A test command, a setup command (network through the egress proxy) or a build command. */
export type CommandKind = 'test' | 'setup' | 'build';

export interface RunnerRule {
  /**
   * What the first positional arguments must be, when it matters (`go test`). An entry of several
   * words (`mod download`) must be the first positional arguments in that order.
   */
  readonly subcommands?: readonly string[];
  /** Positional arguments before the subcommand that select a toolchain (`cargo +nightly test`). */
  readonly selector?: RegExp;
  /** Options refused in any form: `-x`, `-x value`, `-xvalue`, `--long value`, `--long=value`. */
  readonly forbidden: readonly string[];
  /**
   * Options whose value names a file or directory (`make -C sub`, `ctest --test-dir build`): it
   * must be a relative path without `..`, so it stays inside the workspace.
   */
  readonly paths?: readonly string[];
  /** Every positional argument names a directory that must stay inside the workspace. */
  readonly positionalPaths?: boolean;
  /** `-D NAME=…` definitions refused (CMake variables that wrap every compile or test). */
  readonly forbiddenDefines?: RegExp;
  /** Arguments that must appear somewhere (e.g. `node --test`). */
  readonly requires?: readonly string[];
  /** Arguments starting with `@` are read as argument files by this runner. */
  readonly argFiles?: boolean;
  /**
   * Only a virtual environment's own copy (`DIR/bin/pip`, DIR relative to the workspace): the
   * system's would install into the system.
   */
  readonly venvOnly?: boolean;
}

const cargo: RunnerRule = {
  subcommands: ['test', 'nextest', 'check', 'build', 'clippy'],
  selector: /^\+/,
  // --config can set `target.<triple>.runner`: every test binary would run through it.
  forbidden: ['--config', '-Z'],
  paths: ['--target-dir', '--manifest-path', '-C'],
};

const go: RunnerRule = {
  subcommands: ['test', 'vet', 'build'],
  forbidden: ['-exec', '-toolexec', '-modfile', '-overlay', '-pkgdir'],
  paths: ['-o', '-C'],
};

const cmake: RunnerRule = {
  // -E (command mode) runs any program (`cmake -E env sh -c …`), -P any script.
  forbidden: ['-E', '-P'],
  paths: ['-S', '-B', '--build', '-C', '--toolchain'],
  // Variables that run every compile, link or test through another program (like go's -exec).
  forbiddenDefines: /^CMAKE_(CROSSCOMPILING_EMULATOR|\w*LAUNCHER)$/,
};

const make: RunnerRule = {
  forbidden: ['-E', '--eval'],
  paths: ['-C', '--directory', '-f', '--file', '--makefile', '-I', '--include-dir'],
};

// `meson setup` writes the build directory; `meson compile -C DIR` and `ninja -C DIR` rebuild it.
// A cross file may name an `exe_wrapper` that every test runs through (like CMake's emulator).
const mesonBuild: RunnerRule = {
  subcommands: ['setup', 'compile'],
  forbidden: ['--cross-file', '--wrapper', '--wrap', '--gdb'],
  paths: ['-C', '--native-file', '--builddir'],
  positionalPaths: true,
};

const ninja: RunnerRule = {
  // -t runs a ninja tool (`-t commands`, `-t clean`…), never a build.
  forbidden: ['-t'],
  paths: ['-C', '-f'],
};

const npm: RunnerRule = {
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
};

const yarn: RunnerRule = { subcommands: ['test', 'run'], forbidden: ['--cwd', '--use-yarnrc'] };

const pnpm: RunnerRule = {
  subcommands: ['test', 'run'],
  forbidden: ['--dir', '-C', '--config', '--filter'],
};

const mvn: RunnerRule = {
  forbidden: ['-s', '--settings', '-gs', '--global-settings', '-t', '--toolchains'],
  // A repository inside the workspace is how an offline run finds what setup downloaded.
  paths: ['-f', '--file', '-Dmaven.repo.local'],
};

const gradle: RunnerRule = {
  forbidden: ['-I', '--init-script', '-c', '--settings-file'],
  paths: ['-p', '--project-dir', '-g', '--gradle-user-home'],
};

const tsc: RunnerRule = { forbidden: [], paths: ['-p', '--project'], argFiles: true };

const pytest: RunnerRule = {
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
};

const unittest: RunnerRule = { forbidden: [] };

/** The programs of a test command. */
export const runnerRules: Readonly<Record<string, RunnerRule>> = {
  cargo,
  go,
  pytest,
  unittest,
  jest: {
    forbidden: ['--rootDir', '--roots', '--globalSetup', '--globalTeardown', '--testRunner'],
  },
  vitest: { forbidden: ['--root', '--dir', '--globalSetup'] },
  mocha: { forbidden: ['--require', '-r', '--config', '--package'] },
  playwright: { subcommands: ['test'], forbidden: [], paths: ['-c', '--config'] },
  tsc,
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
  npm,
  yarn,
  pnpm,
  bun: { subcommands: ['test'], forbidden: ['--preload', '-r', '--cwd', '--config', '-c'] },
  cmake,
  ctest: {
    // -S/-SP run a CTest script, -D a dashboard (it submits results), --build-and-test any program.
    forbidden: ['-S', '-SP', '--script', '-D', '--build-and-test'],
    paths: ['--test-dir', '--output-junit', '-O', '--output-log'],
  },
  meson: { subcommands: ['test'], forbidden: ['-C', '--wrapper', '--wrap', '--gdb'] },
  make,
  mvn,
  gradle,
  swift: {
    subcommands: ['test'],
    forbidden: ['--package-path', '--scratch-path', '-Xswiftc', '--toolchain'],
  },
  dotnet: {
    subcommands: ['test'],
    forbidden: ['--settings', '-s', '--test-adapter-path', '-a', '--diag'],
  },
};

const pip: RunnerRule = {
  subcommands: ['install'],
  // Each would install somewhere other than the virtual environment.
  forbidden: ['--user', '--root', '--prefix', '--target', '-t', '--break-system-packages'],
  paths: ['-r', '--requirement', '-c', '--constraint'],
  venvOnly: true,
};

/**
 * The programs of a setup command. Setup runs in the sandbox too, with a network only through the
 * egress allowlist proxy, so installers may fetch; what they install stays in the workspace.
 */
export const setupRules: Readonly<Record<string, RunnerRule>> = {
  npm: {
    ...npm,
    subcommands: ['ci', 'install', 'i'],
    forbidden: [...npm.forbidden, '-g', '--global', '--location'],
  },
  pnpm: {
    ...pnpm,
    subcommands: ['install', 'i'],
    forbidden: [...pnpm.forbidden, '-g', '--global'],
  },
  yarn: { ...yarn, subcommands: ['install'] },
  pip,
  cargo: { ...cargo, subcommands: ['fetch', 'build'] },
  go: { ...go, subcommands: ['mod download'] },
  cmake,
  make,
  meson: mesonBuild,
  ninja,
  mvn: { ...mvn, subcommands: ['dependency:go-offline'] },
  uv: {
    subcommands: ['sync'],
    forbidden: [],
    paths: ['--directory', '--project', '--config-file'],
  },
  poetry: {
    subcommands: ['install'],
    forbidden: [],
    paths: ['-C', '--directory', '-P', '--project'],
  },
};

/** The programs of a build command: run before the tests in every run, offline. */
export const buildRules: Readonly<Record<string, RunnerRule>> = {
  cmake,
  make,
  meson: { ...mesonBuild, subcommands: ['compile'] },
  ninja,
  tsc,
  npm: { ...npm, subcommands: ['run', 'run-script'] },
  pnpm: { ...pnpm, subcommands: ['run', 'build'] },
  yarn: { ...yarn, subcommands: ['run', 'build'] },
  cargo: { ...cargo, subcommands: ['build', 'check'] },
  go: { ...go, subcommands: ['build', 'vet'] },
  mvn,
  gradle,
};

/** `python3 -m MODULE …`: the modules each kind of command may start, and their rules. */
export const pythonModules: Readonly<Record<CommandKind, Readonly<Record<string, RunnerRule>>>> = {
  test: { pytest, unittest },
  setup: {
    // `python3 -m venv .venv`: the system's interpreter may make one, inside the workspace.
    venv: { forbidden: [], positionalPaths: true },
    pip,
  },
  build: {},
};

/**
 * `npx` options that only forbid fetching. Every other one is refused: `--package`/`-p` and
 * `--yes` fetch a package, `--call`/`-c` runs a shell string.
 */
export const npxOptions: readonly string[] = ['--no-install', '--no', '--offline'];

/** Program names that mean the same program. */
export const aliases: Readonly<Record<string, string>> = {
  python3: 'python',
  'py.test': 'pytest',
  gradlew: 'gradle',
  mvnw: 'mvn',
  nodejs: 'node',
  pip3: 'pip',
};

/** The program a name means: an alias, or a versioned interpreter (`python3.12`, `pip3.11`). */
export function canonicalProgram(name: string): string {
  const alias = aliases[name];
  if (alias !== undefined) return alias;
  const versioned = /^(python|pip)\d+(\.\d+)?$/.exec(name);
  return versioned?.[1] ?? name;
}

/**
 * Directories an absolute program path may name: the system's own, which a sandbox always shows
 * and whose programs are on its PATH anyway. Any other absolute path (a home, /opt, /tmp) is
 * refused: a program is run by name, or by a relative path inside the workspace.
 */
export const systemProgramDirs: readonly string[] = ['/usr/bin', '/usr/local/bin', '/bin'];
