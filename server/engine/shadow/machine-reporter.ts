// A machine-readable reporter added to the test command, so a run is read test by test whatever
// the user's command prints (`pytest -q`, jest's and vitest's default reporters, `python -m
// unittest` and plain `go test` name no passing test). Only additive options: the user's own
// output stays what is shown. Never where the command already asks for a report of its own
// (junit-paths.ts reads those), nor where the tool is not on the command line (`npm test`).
//
// Report files go to `.shadowbox/reports/<random>` in the workspace: inside the run's shadow (the
// executor reads them back from its upper layer), never part of a change, and named anew for each
// run, so a hypothesis cannot plant one in advance. What they say is still checked like any
// report the run wrote (report-trust.ts: the console must agree, or the canaries must check it).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { isPython, resolveTool, type RunnerName } from '../parsers';
import { unittestRunnerCode } from './unittest-runner';

/** Where added reports go, relative to the workspace. */
export const addedReportsDir = '.shadowbox/reports';

export type AddedReportFormat = 'pytest-junit' | 'jest-json' | 'vitest-json' | 'unittest-json';

export type AddedReporter =
  /** A file the command writes (workspace-relative `path`). */
  | { readonly kind: 'file'; readonly format: AddedReportFormat; readonly path: string }
  /** The console itself becomes machine-readable (`go test -json`); shown decoded. */
  | { readonly kind: 'stream'; readonly format: 'go-json' };

export interface ReporterPlan {
  readonly command: readonly string[];
  readonly reporter: AddedReporter | null;
}

const has = (args: readonly string[], ...names: string[]): boolean =>
  args.some((arg) => names.some((name) => arg === name || arg.startsWith(`${name}=`)));

/** The command with `extra` inserted right after the argument at `at`. */
const insertAfter = (argv: readonly string[], at: number, extra: readonly string[]): string[] => [
  ...argv.slice(0, at + 1),
  ...extra,
  ...argv.slice(at + 1),
];

/**
 * The command with a reporter added for `runner`, or as it was (reporter null). `workspace` is
 * the absolute workspace path, the same inside the sandbox.
 */
export function addReporter(
  command: readonly string[],
  runner: RunnerName | 'auto',
  workspace: string,
): ReporterPlan {
  const unchanged: ReporterPlan = { command, reporter: null };
  const { name, args } = resolveTool(command);
  // resolveTool's args are always the command's tail: the tool is just before them.
  const tool = command.length - args.length - 1;
  if (tool < 0 || name === '') return unchanged;
  const file = (format: AddedReportFormat, extension: string) => {
    const relative = path.posix.join(
      addedReportsDir,
      `${randomBytes(12).toString('hex')}.${extension}`,
    );
    return { relative, absolute: path.join(workspace, relative), format };
  };
  switch (runner) {
    case 'pytest': {
      if (name !== 'pytest' && name !== 'py.test') return unchanged;
      if (has(args, '--junitxml', '--junit-xml') || args.includes('no:junitxml')) return unchanged;
      const report = file('pytest-junit', 'xml');
      // xunit1 names each case's file: the ids become pytest's node ids (pytest-junit.ts).
      const extra = [`--junitxml=${report.absolute}`, '-o', 'junit_family=xunit1'];
      return {
        command: insertAfter(command, tool, extra),
        reporter: { kind: 'file', format: report.format, path: report.relative },
      };
    }
    case 'unittest': {
      // `python [options] -m unittest ARGS` only: other launchers (coverage, nose2) are left.
      if (name !== 'unittest' || command[tool - 1] !== '-m') return unchanged;
      const python = command.slice(0, tool - 1);
      if (!python.some((arg) => isPython(path.basename(arg)))) return unchanged;
      if (python.some((arg) => path.basename(arg) === 'coverage')) return unchanged;
      const report = file('unittest-json', 'json');
      return {
        command: [...python, '-c', unittestRunnerCode(report.absolute), ...args],
        reporter: { kind: 'file', format: report.format, path: report.relative },
      };
    }
    case 'jest': {
      if (name !== 'jest') return unchanged;
      if (has(args, '--json', '--outputFile', '--reporters', '--testResultsProcessor')) {
        return unchanged;
      }
      if (has(args, '--listTests', '--showConfig', '--watch', '--watchAll')) return unchanged;
      const report = file('jest-json', 'json');
      return {
        command: insertAfter(command, tool, ['--json', `--outputFile=${report.absolute}`]),
        reporter: { kind: 'file', format: report.format, path: report.relative },
      };
    }
    case 'vitest': {
      if (name !== 'vitest') return unchanged;
      const reporters = args.flatMap((arg, i) =>
        arg === '--reporter'
          ? [args[i + 1] ?? '']
          : arg.startsWith('--reporter=')
            ? [arg.slice(11)]
            : [],
      );
      if (reporters.some((r) => r === 'json' || r === 'junit')) return unchanged;
      if (has(args, '--outputFile') || args.some((a) => a.startsWith('--outputFile.'))) {
        return unchanged;
      }
      const report = file('vitest-json', 'json');
      // Naming one reporter replaces the configured ones: the user's (or `default`) come first.
      const own = reporters.length === 0 ? ['--reporter=default'] : [];
      const extra = [...own, '--reporter=json', `--outputFile.json=${report.absolute}`];
      return {
        command: [...command, ...extra],
        reporter: { kind: 'file', format: report.format, path: report.relative },
      };
    }
    case 'go': {
      if (name !== 'go') return unchanged;
      const test = command.indexOf('test', tool + 1);
      if (test < 0 || has(args, '-json', '--json')) return unchanged;
      // -c and -list compile or list without running: nothing to read test by test.
      if (has(args, '-c', '-list', '-o')) return unchanged;
      return {
        command: insertAfter(command, test, ['-json']),
        reporter: { kind: 'stream', format: 'go-json' },
      };
    }
    default:
      return unchanged;
  }
}
