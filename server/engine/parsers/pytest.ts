// pytest: the final summary line, `=== 1 failed, 5 passed, 1 skipped, 1 xfailed, 1 xpassed,
// 1 error in 0.89s ===` (bare, without the `=` rule, under `-q`). Test bodies can print lines of the
// same shape, and `-rA` replays their captured output, but always before the final line: the last
// matching line is pytest's own.
//
// Decisions:
// - errors (fixture/setup errors, and collection errors such as a failing import) count as failed:
//   pytest fails the run for them. A collection error shows as `1 error` with no tests at all.
// - xfailed counts as skipped (the test ran but verified nothing); xpassed counts as passed, since
//   pytest does not fail the run for it. A strict xfail that passes is reported by pytest itself
//   as `failed`, so it counts as failed with no special case.
// - `no tests ran` is `parsed: true` with 0/0/0: pytest says so explicitly.
// - deselected tests, warnings and subtest tallies are not tests of this run and are ignored.
//
// Test ids are pytest's node ids (`tests/test_a.py::TestX::test_y[1-2]`), read from the `-v`
// progress lines (`… PASSED  [ 10%]`) or else from the short summary (`-rA`: `PASSED id`,
// `FAILED id - message`, …). A collection error names a file (`ERROR tests/test_b.py`), which is
// its id. A teardown error reports a test a second time (`PASSED`, then `ERROR`): pytest counts
// both, and so does the list (the second as `id #2`). The short summary of `-rA` names skipped
// tests only by location (`SKIPPED [2] tests/test_a.py:9: reason`), and plain `-q` names only
// failures: such lists do not tally with the summary line, so they are not returned as `tests`;
// failures named in full are returned as `failing`, for a verdict inferred with the totals.
import { withTests } from './test-list';
import { counts, unparsed, type TestCase, type TestCounts, type TestStatus } from './types';
import { countParts, get, lastIndexMatching, toLines } from './text';

const part = String.raw`\d+ [a-z]+(?: [a-z]+)?`;
export const pytestSummaryPattern = new RegExp(
  String.raw`^(?:=+ )?((?:${part})(?:, ${part})*|no tests ran) in \d+(?:\.\d+)?s(?: \([\d:.]+\))?(?: =+)?$`,
);
const outcome = 'PASSED|FAILED|SKIPPED|XFAIL|XPASS|ERROR';
// `path::name STATUS (reason)   [ 10%]`; the reason is cut to the terminal width, the progress
// part is missing under `console_output_style = classic`.
const verbosePattern = new RegExp(
  String.raw`^(\S+?::\S.*?) (${outcome})(?: \(.*\))?(?:\s+\[\s*\d+%\])?\s*$`,
);
const shortPattern = new RegExp(String.raw`^(${outcome}) (\S.*?)(?: - .*)?$`);
const shortSummaryStart = /^=+ short test summary info =+$/;

const statuses: Readonly<Record<string, TestStatus>> = {
  PASSED: 'passed',
  XPASS: 'passed',
  FAILED: 'failed',
  ERROR: 'failed',
  SKIPPED: 'skipped',
  XFAIL: 'skipped',
};

export function parsePytest(output: string): TestCounts {
  const lines = toLines(output);
  const index = lastIndexMatching(lines, pytestSummaryPattern);
  if (index < 0) return unparsed();
  const summary = pytestSummaryPattern.exec(lines[index] ?? '')?.[1] ?? '';
  const parts = countParts(summary, /,/);
  const result = counts(
    get(parts, 'passed', 'xpassed'),
    get(parts, 'failed', 'error', 'errors'),
    get(parts, 'skipped', 'xfailed'),
  );
  if (result.passed + result.failed + result.skipped === 0) return result;

  const { verbose, short } = namedTests(lines.slice(0, index));
  // Collection errors appear only in the short summary; they complete the verbose list.
  const seen = new Set(verbose.map((test) => test.id));
  const collectionErrors = short.filter((test) => !test.id.includes('::') && !seen.has(test.id));
  const fromVerbose = withTests(result, [...verbose, ...collectionErrors]);
  if (fromVerbose.tests.length > 0) return fromVerbose;
  const fromShort = withTests(result, short);
  if (fromShort.tests.length > 0) return fromShort;
  // `-q` names only failures: enough, with the totals, to infer what a change fixed.
  const failing = [...new Set(short.filter((t) => t.status === 'failed').map((t) => t.id))];
  return failing.length === result.failed && failing.length > 0 ? { ...result, failing } : result;
}

function namedTests(lines: readonly string[]): { verbose: TestCase[]; short: TestCase[] } {
  const verbose: TestCase[] = [];
  let short: TestCase[] = [];
  let inShortSummary = false;
  for (const line of lines) {
    if (shortSummaryStart.test(line)) {
      // Only the last short summary is pytest's own (a test may print one).
      inShortSummary = true;
      short = [];
      continue;
    }
    if (inShortSummary) {
      // `SKIPPED [1] path:line: reason` names no node id but belongs to the block.
      if (line.startsWith('SKIPPED [')) continue;
      const match = shortPattern.exec(line);
      if (match === null) inShortSummary = false;
      else short.push({ id: match[2] ?? '', status: statuses[match[1] ?? ''] ?? 'failed' });
      continue;
    }
    const match = verbosePattern.exec(line);
    if (match !== null) {
      verbose.push({ id: match[1] ?? '', status: statuses[match[2] ?? ''] ?? 'failed' });
    }
  }
  return { verbose, short };
}
