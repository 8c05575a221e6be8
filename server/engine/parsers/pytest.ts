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
import { counts, unparsed, type TestCounts } from './types';
import { countParts, get, lastIndexMatching, toLines } from './text';

const part = String.raw`\d+ [a-z]+(?: [a-z]+)?`;
export const pytestSummaryPattern = new RegExp(
  String.raw`^(?:=+ )?((?:${part})(?:, ${part})*|no tests ran) in \d+(?:\.\d+)?s(?: \([\d:.]+\))?(?: =+)?$`,
);

export function parsePytest(output: string): TestCounts {
  const lines = toLines(output);
  const index = lastIndexMatching(lines, pytestSummaryPattern);
  if (index < 0) return unparsed();
  const summary = pytestSummaryPattern.exec(lines[index] ?? '')?.[1] ?? '';
  const parts = countParts(summary, /,/);
  return counts(
    get(parts, 'passed', 'xpassed'),
    get(parts, 'failed', 'error', 'errors'),
    get(parts, 'skipped', 'xfailed'),
  );
}
