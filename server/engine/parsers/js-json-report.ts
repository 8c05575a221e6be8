// Jest's `--json` report, which vitest's `json` reporter copies: `testResults[]`, one per test
// file (`name` is its absolute path), each with `assertionResults[]` (`ancestorTitles`, `title`,
// `status`). Shadowbox adds this report to jest and vitest commands (machine-reporter.ts) so a run
// is read test by test whatever the console shows (the default reporters name only failures).
//
// Ids are written as the runners' own consoles write them, so the two sources compare and the
// canaries (found by file) still work: the file relative to the run's directory, then the describe
// blocks and the title, joined by ` › ` (jest) or ` > ` (vitest). A file that failed to run
// (syntax error, failing import) has no assertions and a failure message: it is one failed test,
// named by its file, as both consoles count it.
import path from 'node:path';
import { uniqueTests } from './test-list';
import { OutputBudget } from './test-output';
import { fromTests, unparsed, type TestCase, type TestCounts, type TestStatus } from './types';

const separators = { jest: ' › ', vitest: ' > ' } as const;

interface FileResult {
  readonly name?: unknown;
  readonly status?: unknown;
  readonly message?: unknown;
  readonly assertionResults?: unknown;
}

interface Assertion {
  readonly ancestorTitles?: unknown;
  readonly title?: unknown;
  readonly status?: unknown;
  readonly failureMessages?: unknown;
}

const statusOf = (status: unknown): TestStatus =>
  status === 'passed' ? 'passed' : status === 'failed' ? 'failed' : 'skipped';

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** `base`: the absolute directory the command ran in (file names are made relative to it). */
export function parseJsJsonReport(
  text: string,
  runner: 'jest' | 'vitest',
  base: string,
): TestCounts {
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    return unparsed();
  }
  if (typeof report !== 'object' || report === null) return unparsed();
  const files = (report as { testResults?: unknown }).testResults;
  if (!Array.isArray(files)) return unparsed();
  const tests: TestCase[] = [];
  const budget = new OutputBudget();
  /** A failed test with the report's failure text as its output, while the budget lasts. */
  const withOutput = (test: TestCase, text: string): TestCase => {
    const output = budget.take(text);
    return output === undefined ? test : { ...test, output };
  };
  for (const file of files as FileResult[]) {
    const absolute = typeof file.name === 'string' ? file.name : '';
    const relative = path.isAbsolute(absolute) ? path.relative(base, absolute) : absolute;
    const assertions = Array.isArray(file.assertionResults)
      ? (file.assertionResults as Assertion[])
      : [];
    if (assertions.length === 0) {
      const message = typeof file.message === 'string' ? file.message : '';
      if (file.status === 'failed' && message.trim() !== '') {
        tests.push(withOutput({ id: relative, status: 'failed' }, message));
      }
      continue;
    }
    for (const a of assertions) {
      const title = typeof a.title === 'string' ? a.title : '';
      const id = [relative, ...strings(a.ancestorTitles), title].join(separators[runner]);
      const status = statusOf(a.status);
      tests.push(
        status === 'failed'
          ? withOutput({ id, status }, strings(a.failureMessages).join('\n'))
          : { id, status },
      );
    }
  }
  return fromTests(uniqueTests(tests));
}
