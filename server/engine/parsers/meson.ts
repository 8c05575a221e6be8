// meson test: the closing block
//   Ok:                 2
//   Expected Fail:      1
//   Fail:               1
//   Unexpected Pass:    1
//   Skipped:            1
//   Timeout:            0
// read from its last `Ok:` line (verbose runs print test output, which could imitate it, earlier).
// Decisions: Unexpected Pass and Timeout count as failed (meson fails the run and lists them under
// "Summary of Failures"); Expected Fail counts as skipped (consistent with pytest's xfail).
// A build failure (`Could not rebuild`) prints no block: `parsed: false`. `No tests defined.` is
// `parsed: true` with 0/0/0.
//
// Test ids are the names as meson prints them in its result lines, `3/6 fails   FAIL   0.01s
// exit status 1` (`project:suite / name` when tests belong to suites), with the same arithmetic
// per status: OK passed, SKIP and EXPECTEDFAIL skipped, anything else failed. The lines under
// `Summary of Failures:` repeat failures and are not read.
import { withTests } from './test-list';
import { counts, unparsed, type TestCase, type TestCounts, type TestStatus } from './types';
import { lastIndexMatching, num, toLines } from './text';

export const mesonOkPattern = /^Ok:\s+\d+\s*$/;
export const mesonNoTestsPattern = /^No tests defined\.$/;
const itemPattern = /^([A-Za-z ]+):\s+(\d+)\s*$/;
const resultPattern =
  /^\s*\d+\/\d+ (\S.*?)\s+(OK|FAIL|SKIP|EXPECTEDFAIL|UNEXPECTEDPASS|TIMEOUT|ERROR)\s+\d+(?:\.\d+)?s\b/;
const statuses: Readonly<Record<string, TestStatus>> = {
  OK: 'passed',
  SKIP: 'skipped',
  EXPECTEDFAIL: 'skipped',
};

export function parseMeson(output: string): TestCounts {
  const lines = toLines(output);
  const index = lastIndexMatching(lines, mesonOkPattern);
  if (index < 0)
    return lines.some((line) => mesonNoTestsPattern.test(line)) ? counts(0, 0, 0) : unparsed();
  const values = new Map<string, number>();
  for (const line of lines.slice(index)) {
    const match = itemPattern.exec(line);
    if (match === null) break;
    values.set(match[1] ?? '', num(match[2]));
  }
  const value = (key: string): number => values.get(key) ?? 0;
  const summary = counts(
    value('Ok'),
    value('Fail') + value('Unexpected Pass') + value('Timeout'),
    value('Skipped') + value('Expected Fail'),
  );
  const tests: TestCase[] = [];
  // `Summary of Failures:` repeats the failed tests' lines.
  const repeated = lastIndexMatching(lines.slice(0, index), /^Summary of Failures:$/);
  for (const line of lines.slice(0, repeated < 0 ? index : repeated)) {
    const match = resultPattern.exec(line);
    if (match !== null) {
      tests.push({ id: match[1] ?? '', status: statuses[match[2] ?? ''] ?? 'failed' });
    }
  }
  return withTests(summary, tests);
}
