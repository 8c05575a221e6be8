// swift-testing (`import Testing`): the run ends with
//   `✔ Test run with 3 tests passed after 0.002 seconds.` or
//   `✘ Test run with 6 tests in 1 suite failed after 0.007 seconds with 4 issues.`
// The count includes skipped tests but the issue count is per expectation, not per test, so
// failures and skips come from the per-test lines `✘ Test fails() failed after …` and
// `➜ Test later() skipped…`, bounded by the run's own total (a test printing such lines cannot
// push the counts past it). The symbol differs by platform (SF Symbols on macOS), so any
// non-space prefix is accepted.
//
// Decisions: a test that passes with only known issues (`withKnownIssue`) counts as passed; only
// the last run summary counts, because a test could print one earlier.
//
// Test ids are the names after `Test`: the function (`adds()`) or its display name without the
// quotes (`Parsing rejects junk`), from the `passed after`, `failed after` and `skipped` lines.
import { withTests } from './test-list';
import { counts, unparsed, type TestCase, type TestCounts } from './types';
import { lastIndexMatching, num, toLines } from './text';

export const swiftTestingRunPattern =
  /^\S+ Test run with (\d+) tests?(?: in \d+ suites?)? (passed|failed) after \d+(?:\.\d+)? seconds\b/u;
const testFailedPattern = /^\S+ Test (?!run with )(.+) failed after \d+(?:\.\d+)? seconds\b/u;
const testSkippedPattern = /^\S+ Test (.+?) skipped(?:\.|: ")/u;
const testPassedPattern = /^\S+ Test (?!run with )(.+) passed after \d+(?:\.\d+)? seconds\b/u;

export function parseSwiftTesting(output: string): TestCounts {
  const lines = toLines(output);
  const index = lastIndexMatching(lines, swiftTestingRunPattern);
  if (index < 0) return unparsed();
  const run = swiftTestingRunPattern.exec(lines[index] ?? '');
  const total = num(run?.[1]);
  const before = lines.slice(0, index);
  const names = (pattern: RegExp): number =>
    new Set(before.flatMap((line) => pattern.exec(line)?.[1] ?? [])).size;

  const failed = run?.[2] === 'failed' ? Math.min(Math.max(names(testFailedPattern), 1), total) : 0;
  const skipped = Math.min(names(testSkippedPattern), total - failed);
  const summary = counts(total - failed - skipped, failed, skipped);
  const tests: TestCase[] = [];
  for (const line of before) {
    const passed = testPassedPattern.exec(line)?.[1];
    const failedName = testFailedPattern.exec(line)?.[1];
    const skippedName = testSkippedPattern.exec(line)?.[1];
    if (passed !== undefined) tests.push({ id: unquote(passed), status: 'passed' });
    else if (failedName !== undefined) tests.push({ id: unquote(failedName), status: 'failed' });
    else if (skippedName !== undefined) tests.push({ id: unquote(skippedName), status: 'skipped' });
  }
  return withTests(summary, tests);
}

function unquote(name: string): string {
  return /^".*"$/.test(name) ? name.slice(1, -1) : name;
}
