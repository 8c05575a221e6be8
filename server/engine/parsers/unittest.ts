// Python unittest (and runners built on it, e.g. Django's): `Ran N tests in 0.001s`, a blank line,
// then `OK`, `OK (skipped=1)`, `FAILED (failures=2, errors=1, skipped=1, expected failures=1,
// unexpected successes=1)` or, from Python 3.12, `NO TESTS RAN`. Only a `Ran` line followed by such
// a status line counts, and the last one wins: a test printing `Ran 40 tests` cannot pose as the
// summary without also being the final pair.
//
// Decisions:
// - errors count as failed; so do unexpected successes, because unittest reports the run FAILED
//   for them. Expected failures count as skipped (consistent with pytest's xfail).
// - `failures` counts failing subtests, so it can exceed the number of test methods; passed is
//   what is left of N and never goes below 0.
//
// Test ids come from `-v` lines, `test_x (pkg.module.Class.test_x) ... ok` (Python ≥ 3.11) or
// `test_x (pkg.module.Class) ... ok` (older): both give `pkg.module.Class.test_x`. A docstring
// moves the status to the next line, a test's own output can come between `...` and the status,
// and a test whose subtests failed prints `FAIL` on an indented subtest line (3.11+) or nothing at
// all (3.10, whose next test then starts on the same line). The list is returned when it names
// exactly N tests and its statuses agree with the summary; then the counts are the list's, which
// is exact where the summary's `failures` counts subtests: a method with two failing subtests is
// one failed test.
import { counts, fromTests, unparsed, type TestCase, type TestCounts } from './types';
import { uniqueTests } from './test-list';
import { num, toLines } from './text';

export const unittestRanPattern = /^Ran (\d+) tests? in \d+(?:\.\d+)?s$/;
const statusPattern = /^(OK|FAILED|NO TESTS RAN)(?: \((.*)\))?$/;
const headerPattern = /^(\w+) \(([\w.]+)\)/;
const resultPattern = /^(ok|FAIL|ERROR|skipped(?: .*)?|expected failure|unexpected success)$/;
const subtestPattern = /^\s+(\w+) \(([\w.]+)\) \(.*\) \.\.\. (FAIL|ERROR)$/;

interface Summary {
  readonly ran: number;
  readonly failed: number;
  readonly skipped: number;
}

export function parseUnittest(output: string): TestCounts {
  const lines = toLines(output);
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const ran = unittestRanPattern.exec(lines[index] ?? '');
    if (ran === null) continue;
    const status = statusPattern.exec(nextNonBlank(lines, index + 1));
    if (status === null) continue;
    const details = new Map<string, number>();
    for (const item of (status[2] ?? '').split(',')) {
      const [key, value] = item.split('=');
      if (key !== undefined && value !== undefined) details.set(key.trim(), num(value.trim()));
    }
    const detail = (key: string): number => details.get(key) ?? 0;
    const summary: Summary = {
      ran: num(ran[1]),
      failed: detail('failures') + detail('errors') + detail('unexpected successes'),
      skipped: detail('skipped') + detail('expected failures'),
    };
    const named = namedTests(lines.slice(0, index), summary);
    if (named !== null) return named;
    const { failed, skipped } = summary;
    const result = counts(Math.max(0, summary.ran - failed - skipped), failed, skipped);
    // Without -v, each failure's report names it (`FAIL: test_x (pkg.mod.Class.test_x)`): enough,
    // with the totals, to infer what a change fixed. Subtests and unexpected successes (not
    // reported there) make the names fewer than the failures: then none are kept.
    const failing = [...new Set(lines.slice(0, index).flatMap(failureHeader))];
    return failing.length === failed && failed > 0 ? { ...result, failing } : result;
  }
  return unparsed();
}

function namedTests(lines: readonly string[], summary: Summary): TestCounts | null {
  if (summary.ran === 0) return null;
  const tests: TestCase[] = [];
  // Tests whose header was printed and whose status is still to come, oldest first.
  const pending = new Map<string, boolean>();
  let latest: string | null = null;
  const settle = (id: string, result: string): void => {
    pending.delete(id);
    if (latest === id) latest = null;
    tests.push({ id, status: statusOf(result) });
  };
  for (const line of lines) {
    const subtest = subtestPattern.exec(line);
    if (subtest !== null) {
      const id = testId(subtest[1] ?? '', subtest[2] ?? '');
      if (pending.has(id)) pending.set(id, true);
      continue;
    }
    let rest = line;
    let header = headerPattern.exec(rest);
    let matched = false;
    if (header !== null) {
      // The previous test is over: one whose subtests failed ends here, in the order reported.
      for (const [id, failedSubtest] of pending) if (failedSubtest) settle(id, 'FAIL');
    }
    while (header !== null) {
      matched = true;
      const id = testId(header[1] ?? '', header[2] ?? '');
      pending.set(id, pending.get(id) ?? false);
      latest = id;
      rest = rest.slice(header[0].length);
      const dots = rest.indexOf(' ... ');
      if (dots < 0) break;
      rest = rest.slice(dots + 5);
      const result = resultPattern.exec(rest.trimEnd());
      if (result !== null) {
        settle(id, result[1] ?? '');
        break;
      }
      header = headerPattern.exec(rest);
    }
    if (matched) continue;
    // A status alone on a line, or after a docstring line (`Totals a cart. ... ok`), belongs to
    // the latest pending test.
    if (latest === null) continue;
    const dots = line.lastIndexOf(' ... ');
    const result = resultPattern.exec((dots < 0 ? line : line.slice(dots + 5)).trimEnd());
    if (result !== null) settle(latest, result[1] ?? '');
  }
  // Tests left without a status failed through their subtests (Python 3.10 prints nothing else).
  for (const [id, failedSubtest] of pending) {
    if (failedSubtest || pending.size <= summary.failed) tests.push({ id, status: 'failed' });
  }
  const listed = fromTests(uniqueTests(tests));
  if (listed.tests.length !== summary.ran || listed.skipped !== summary.skipped) return null;
  // Failing subtests make the summary's count larger, never smaller.
  if (listed.failed > summary.failed || (listed.failed === 0) !== (summary.failed === 0)) {
    return null;
  }
  return listed;
}

const failureHeaderPattern = /^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)$/;

function failureHeader(line: string): string[] {
  const match = failureHeaderPattern.exec(line);
  return match === null ? [] : [testId(match[1] ?? '', match[2] ?? '')];
}

function testId(method: string, where: string): string {
  return where.endsWith(`.${method}`) ? where : `${where}.${method}`;
}

function statusOf(result: string): TestCase['status'] {
  if (result === 'ok') return 'passed';
  if (result.startsWith('skipped') || result === 'expected failure') return 'skipped';
  return 'failed';
}

function nextNonBlank(lines: readonly string[], from: number): string {
  for (let index = from; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (line.trim() !== '') return line;
  }
  return '';
}
