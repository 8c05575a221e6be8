// XCTest, as printed by `swift test` (Linux: swift-corelibs-xctest; macOS: Xcode's XCTest). Each
// suite ends with `Executed 5 tests, with 1 test skipped and 3 failures (1 unexpected) in …`; the
// outermost suite ('All tests') finishes last, so the last such line is the run's total.
// Its failure count is per assertion (a test with two failed asserts adds two), so failed tests
// are the distinct `Test Case '…' failed` lines, at least 1 when there are failures and at most
// the number of tests that were not skipped.
//
// `swift test` runs XCTest and then swift-testing and prints both summaries; this parser adds the
// swift-testing part, so the `xctest` runner covers a whole `swift test` run. A build failure
// prints neither summary: `parsed: false`.
//
// Test ids are the cases as XCTest names them in `Test Case 'MathTests.testAdds' passed (…)`
// (`failed`, `skipped`); macOS's `-[Module.Class testName]` is written `Module.Class.testName`.
// The swift-testing part adds its own ids (`sum` keeps the list only when both are complete).
import { parseSwiftTesting } from './swift-testing';
import { withTests } from './test-list';
import { counts, sum, unparsed, type TestCase, type TestCounts } from './types';
import { lastIndexMatching, num, toLines } from './text';

export const xctestExecutedPattern =
  /^\s*Executed (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures? \(\d+ unexpected\) in /;
const caseFailedPattern = /^Test Case '(.+)' failed \(/;
const caseResultPattern = /^Test Case '(.+)' (passed|failed|skipped) \(/;

export function parseXctest(output: string): TestCounts {
  return sum(parseXctestOnly(output), parseSwiftTesting(output));
}

function parseXctestOnly(output: string): TestCounts {
  const lines = toLines(output);
  const index = lastIndexMatching(lines, xctestExecutedPattern);
  if (index < 0) return unparsed();
  const match = xctestExecutedPattern.exec(lines[index] ?? '');
  const executed = num(match?.[1]);
  const skipped = Math.min(num(match?.[2]), executed);
  const failures = num(match?.[3]);
  const failedCases = new Set(
    lines.slice(0, index).flatMap((line) => caseFailedPattern.exec(line)?.[1] ?? []),
  ).size;
  const failed = failures === 0 ? 0 : Math.min(Math.max(failedCases, 1), executed - skipped);
  const summary = counts(executed - skipped - failed, failed, skipped);
  const tests: TestCase[] = [];
  for (const line of lines.slice(0, index)) {
    const match = caseResultPattern.exec(line);
    if (match === null) continue;
    const name = (match[1] ?? '').replace(/^-\[(\S+) (\S+)\]$/, '$1.$2');
    const status = match[2] === 'passed' ? 'passed' : match[2] === 'failed' ? 'failed' : 'skipped';
    tests.push({ id: name, status });
  }
  return withTests(summary, tests);
}
