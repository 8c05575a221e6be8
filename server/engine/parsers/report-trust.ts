// A report file (JUnit XML) is written by whatever runs in the sandbox, and so is the console:
// code under test can write an all-pass report and exit before the runner says anything. The
// report is trusted only where the runner's own text output agrees with it: the same numbers of
// passed and failed tests and, where both name their tests, the same tests with the same results.
// Ids are compared by their last name part: a report says `tests.test_a.test_x`, the console
// `tests/test_a.py::test_x`.
import type { TestCase, TestCounts } from './types';

export type ReportCheck =
  | { readonly agrees: true }
  /** The console gave no results to check the report against. */
  | { readonly agrees: false; readonly unchecked: true; readonly reason: string }
  | { readonly agrees: false; readonly unchecked: false; readonly reason: string };

const tally = (c: TestCounts): string => `${c.passed} passed, ${c.failed} failed`;

/** `pkg.mod.Class.test_x[a.b]` → `test_x[a.b]`: the parameters may hold any separator. */
export function leafName(id: string): string {
  const bracket = id.indexOf('[');
  const head = bracket < 0 ? id : id.slice(0, bracket);
  const tail = bracket < 0 ? '' : id.slice(bracket);
  const parts = head.split(/::|\s>\s|[./\\]|\s›\s/);
  return `${(parts.at(-1) ?? head).trim()}${tail}`.replace(/ #\d+$/, '');
}

const key = (t: TestCase): string => `${leafName(t.id)}\u0000${t.status}`;

function multiset(tests: readonly TestCase[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tests) counts.set(key(t), (counts.get(key(t)) ?? 0) + 1);
  return counts;
}

export function checkReport(report: TestCounts, text: TestCounts): ReportCheck {
  if (!report.parsed) return { agrees: true };
  if (!text.parsed) {
    return {
      agrees: false,
      unchecked: true,
      reason: `the JUnit report (${tally(report)}) could not be checked: the runner's output shows no results`,
    };
  }
  if (report.passed !== text.passed || report.failed !== text.failed) {
    return {
      agrees: false,
      unchecked: false,
      reason: `the JUnit report (${tally(report)}) disagrees with the runner's output (${tally(text)})`,
    };
  }
  if (report.tests.length > 0 && text.tests.length > 0) {
    const fromReport = multiset(report.tests.filter((t) => t.status !== 'skipped'));
    const fromText = multiset(text.tests.filter((t) => t.status !== 'skipped'));
    for (const [k, n] of fromText) {
      if ((fromReport.get(k) ?? 0) !== n) {
        const [name = '', status = ''] = k.split('\u0000');
        return {
          agrees: false,
          unchecked: false,
          reason: `the JUnit report disagrees with the runner's output on ${name} (${status} in the output)`,
        };
      }
    }
  }
  return { agrees: true };
}
