// The report of Shadowbox's own unittest runner (see shadow/unittest-runner.ts): the id and the
// result of each test as unittest's result object saw them, `{"tests":[{"id","status"}]}`. The
// ids are `TestCase.id()`, `pkg.module.Class.test_x`, the form the console parser reads from `-v`.
import { uniqueTests } from './test-list';
import { fromTests, unparsed, type TestCase, type TestCounts } from './types';

const statuses = new Set(['passed', 'failed', 'skipped']);

export function parseUnittestReport(text: string): TestCounts {
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    return unparsed();
  }
  const tests = (report as { tests?: unknown } | null)?.tests;
  if (!Array.isArray(tests)) return unparsed();
  const cases: TestCase[] = [];
  for (const entry of tests as { id?: unknown; status?: unknown }[]) {
    if (typeof entry.id !== 'string' || typeof entry.status !== 'string') return unparsed();
    if (!statuses.has(entry.status)) return unparsed();
    cases.push({ id: entry.id, status: entry.status as TestCase['status'] });
  }
  return fromTests(uniqueTests(cases));
}
