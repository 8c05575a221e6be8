// Picks the parser for a test command, so a run is read with its runner's rules rather than
// guessed from the text. Anything that runs a project-defined script (`npm test`, `make test`,
// `tox`) gives `auto`: the tool is not on the command line.
import { resolveTool } from './command';
import type { RunnerName } from './types';

// Global cargo options whose value is a separate argument (`cargo --color always test`).
const cargoValueOptions = new Set(['--color', '--config', '-Z', '-C', '--manifest-path']);

export function runnerFromCommand(argv: readonly string[]): RunnerName | 'auto' {
  const { name, args } = resolveTool(argv);
  const positional = positionals(args);
  const first = positional[0];
  switch (name) {
    case 'cargo': {
      // `cargo +nightly test`: the toolchain selector comes before the subcommand.
      const sub = positionals(args, cargoValueOptions).find((arg) => !arg.startsWith('+'));
      if (sub === 'test') return 'cargo';
      return sub === 'nextest' ? 'nextest' : 'auto';
    }
    case 'cargo-nextest':
      return 'nextest';
    case 'go':
      return first === 'test' ? 'go' : 'auto';
    case 'pytest':
    case 'py.test':
      return 'pytest';
    case 'unittest':
    case 'nose2':
      return 'unittest';
    case 'manage.py': // Django's test runner prints unittest's summary.
      return first === 'test' ? 'unittest' : 'auto';
    case 'jest':
    case 'vitest':
    case 'mocha':
      return name;
    case '_mocha':
      return 'mocha';
    case 'node':
      return args.some((arg) => arg === '--test') ? 'node' : 'auto';
    case 'bun':
      return first === 'test' ? 'bun' : 'auto';
    case 'tape':
      return 'tap';
    case 'perl':
      return positional.some((arg) => arg.endsWith('.t')) ? 'tap' : 'auto';
    case 'swift':
      // `swift test` prints XCTest's and swift-testing's summaries; the xctest parser reads both.
      return first === 'test' ? 'xctest' : 'auto';
    case 'xcodebuild':
      return positional.includes('test') ? 'xctest' : 'auto';
    case 'ctest':
      return 'ctest';
    case 'meson':
      return first === 'test' ? 'meson' : 'auto';
    case 'mvn':
    case 'mvnw':
      // Surefire's console; its JUnit XML reports (see junit-paths) are read first when present.
      return 'maven';
    case 'gradle':
    case 'gradlew':
      // Gradle's console output has no parser here; the results are the JUnit XML reports.
      return 'junit';
    default:
      return 'auto';
  }
}

function positionals(args: readonly string[], valued: ReadonlySet<string> = new Set()): string[] {
  const result: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (valued.has(arg)) index += 1;
    else if (!arg.startsWith('-')) result.push(arg);
  }
  return result;
}
