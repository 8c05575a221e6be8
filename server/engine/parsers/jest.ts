// Jest: the summary block `Test Suites: …` / `Tests: 2 failed, 1 skipped, 1 todo, 3 passed, 7 total`.
// Jest indents everything a test logs (`console.log` blocks, error messages), so a `Tests:` line at
// the start of a line right after `Test Suites:` is jest's own; the last such pair wins.
//
// Decisions:
// - todo counts as skipped.
// - A test file that cannot run (syntax error, failing import) produces no tests but jest reports
//   the suite as failed and prints `● Test suite failed to run`; each such suite counts as one
//   failure (at most as many as `Test Suites: N failed`), so a broken file is not a silent 0.
// - `No tests found, exiting with code N` is `parsed: true` with 0/0/0.
import { counts, unparsed, type TestCounts } from './types';
import { countParts, get, toLines } from './text';

export const jestSuitesPattern = /^Test Suites: (.*)$/;
export const jestTestsPattern = /^Tests:\s+(.*\d+ total)$/;
const suiteErrorPattern = /^\s*● Test suite failed to run$/;
const noTestsPattern = /^No tests found, exiting with code \d+$/;

export function parseJest(output: string): TestCounts {
  const lines = toLines(output);
  for (let index = lines.length - 1; index > 0; index -= 1) {
    const tests = jestTestsPattern.exec(lines[index] ?? '');
    const suites = jestSuitesPattern.exec(lines[index - 1] ?? '');
    if (tests === null || suites === null) continue;
    const parts = countParts(tests[1] ?? '', /,/);
    const failedSuites = get(countParts(suites[1] ?? '', /,/), 'failed');
    const brokenSuites = lines
      .slice(0, index)
      .filter((line) => suiteErrorPattern.test(line)).length;
    return counts(
      get(parts, 'passed'),
      get(parts, 'failed') + Math.min(brokenSuites, failedSuites),
      get(parts, 'skipped', 'todo'),
    );
  }
  return lines.some((line) => noTestsPattern.test(line)) ? counts(0, 0, 0) : unparsed();
}
