import { canonicalProgram } from './command-rules';
import { checkBuildCommand } from './command-policy';

/**
 * The rebuild gap: a setup that builds, a test command that runs what was built without
 * rebuilding it, and no build step between them. Every hypothesis would then test the binaries
 * built from the baseline, whatever it changed: a silent wrong verdict. A task given that way is
 * refused with the build step to add.
 */

const show = (argv: readonly string[]): string => argv.join(' ');

const programOf = (argv: readonly string[]): string =>
  canonicalProgram((argv[0] ?? '').split('/').at(-1) ?? '');

/** Positional words after the program (its subcommand and targets), options left out. */
const words = (argv: readonly string[]): string[] =>
  argv.slice(1).filter((a) => !a.startsWith('-'));

/** Whether a command compiles something: make, `cmake --build`, ninja, `meson compile`, `cargo build`. */
export function commandBuilds(argv: readonly string[]): boolean {
  switch (programOf(argv)) {
    case 'make':
    case 'ninja':
      return true;
    case 'cmake':
      return argv.includes('--build');
    case 'meson':
      return words(argv)[0] === 'compile';
    case 'cargo':
      return words(argv).some((w) => w === 'build');
    default:
      return false;
  }
}

/** A setup command that configures a CMake build directory (its `test` target builds nothing). */
const configuresCmake = (argv: readonly string[]): boolean =>
  programOf(argv) === 'cmake' && !argv.includes('--build');

/**
 * Whether a test command builds what it tests before running it: the build tools' own test
 * commands do (`make test` by the target's prerequisites, `meson test`, `cargo test`, `go test`,
 * `mvn test`…); `ctest`, pytest and the JavaScript runners run what is there.
 */
export function testCommandRebuilds(
  test: readonly string[],
  setupCommands: readonly (readonly string[])[],
): boolean {
  switch (programOf(test)) {
    case 'make':
      // CMake's generated `test` target only runs ctest.
      return !setupCommands.some(configuresCmake);
    case 'meson':
      return !test.includes('--no-rebuild');
    case 'cmake':
      return test.includes('--build');
    case 'dotnet':
      return !test.includes('--no-build');
    case 'cargo':
    case 'go':
    case 'mvn':
    case 'gradle':
    case 'swift':
      return true;
    default:
      return false;
  }
}

/**
 * Why a task with these commands would test stale binaries, naming the build step to add; null
 * when it would not (a build command is given, setup builds nothing, or the tests rebuild).
 */
export function rebuildGap(task: {
  readonly testCommand: readonly string[];
  readonly setupCommands?: readonly (readonly string[])[] | null | undefined;
  readonly buildCommand?: readonly string[] | null | undefined;
}): string | null {
  const setup = task.setupCommands ?? [];
  if (task.buildCommand !== null && task.buildCommand !== undefined) return null;
  if (testCommandRebuilds(task.testCommand, setup)) return null;
  const index = setup.findLastIndex(commandBuilds);
  const builds = setup[index];
  if (builds === undefined) return null;
  const step = checkBuildCommand(builds).ok ? builds : null;
  const add =
    step === null
      ? 'add a buildCommand that rebuilds (e.g. ["make"] or ["cmake","--build","build"])'
      : `add buildCommand ${JSON.stringify(step)}`;
  return (
    `setup command ${index + 1} (${show(builds)}) builds, but the test command ` +
    `(${show(task.testCommand)}) does not rebuild, so every hypothesis would test the binaries ` +
    `built before its change: ${add}; it runs in the sandbox before the tests of every run`
  );
}
