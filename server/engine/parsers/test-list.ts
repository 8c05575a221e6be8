// Named tests: consumers compare the id sets of two runs (a baseline and a hypothesis), so a list
// is only worth returning when it is complete. Parsers collect the tests a runner names and check
// them against the runner's own summary: if the statuses do not tally exactly (a reporter that
// names only failures, a tail that lost the first lines, a test whose output broke a line), the
// counts stand alone and `tests` is empty.
import { fromTests, type TestCase, type TestCounts } from './types';

/**
 * Makes ids unique in a deterministic way: the second `x` becomes `x #2`, the third `x #3`, in
 * the order the runner reported them (a real test already called `x #2` pushes it to `x #3`).
 */
export function uniqueTests(tests: readonly TestCase[]): TestCase[] {
  const taken = new Set(tests.map((test) => test.id));
  if (taken.size === tests.length) return [...tests];
  const seen = new Map<string, number>();
  const result: TestCase[] = [];
  const used = new Set<string>();
  for (const test of tests) {
    if (!used.has(test.id)) {
      used.add(test.id);
      result.push(test);
      continue;
    }
    let n = seen.get(test.id) ?? 1;
    let id: string;
    do {
      n += 1;
      id = `${test.id} #${n}`;
    } while (used.has(id) || taken.has(id));
    seen.set(test.id, n);
    used.add(id);
    result.push({ ...test, id });
  }
  return result;
}

/** `summary` with the named tests when their statuses tally exactly with it, else with none. */
export function withTests(summary: TestCounts, tests: readonly TestCase[]): TestCounts {
  if (!summary.parsed || tests.length === 0) return summary;
  const listed = fromTests(uniqueTests(tests));
  const agrees =
    listed.passed === summary.passed &&
    listed.failed === summary.failed &&
    listed.skipped === summary.skipped;
  return agrees ? { ...listed, buildFailed: summary.buildFailed } : summary;
}

/** Counts and tests of a run whose list is the only source (go, TAP): the list is the summary. */
export function listOnly(tests: readonly TestCase[]): TestCounts {
  return fromTests(uniqueTests(tests));
}
