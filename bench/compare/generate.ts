import type { TestCase } from '../../server/engine/parsers';
import type { SeedHypothesis } from '../../server/tasks/compare/test-support/seed-compare';

/**
 * A suite of `tests` tests run at the baseline and by `hypotheses` hypotheses, where exactly the
 * first `differing` tests do not have the same status everywhere: each of those is changed by
 * one hypothesis (round robin): a baseline failure it fixes, a pass it breaks, and every 97th it
 * loses (absent from its run). The rest pass (or, every 50th, are skipped) in every run.
 */
export function generateSuite(options: {
  readonly tests: number;
  readonly differing: number;
  readonly hypotheses: number;
}): { baseline: TestCase[]; hypotheses: SeedHypothesis[] } {
  const id = (i: number): string =>
    `tests/module_${i % 50}/test_file_${i % 200}.py::TestClass${i % 7}::test_case_${i}`;
  const before = (i: number): TestCase['status'] =>
    i < options.differing && i % 3 === 0 ? 'failed' : i % 50 === 49 ? 'skipped' : 'passed';
  const baseline = Array.from({ length: options.tests }, (_, i) => ({
    id: id(i),
    status: before(i),
  }));
  const hypotheses = Array.from({ length: options.hypotheses }, (_, h): SeedHypothesis => {
    const cases: TestCase[] = [];
    for (let i = 0; i < options.tests; i += 1) {
      const status = before(i);
      if (i >= options.differing || i % options.hypotheses !== h) {
        cases.push({ id: id(i), status });
      } else if (i % 97 === 0) {
        continue;
      } else {
        cases.push({ id: id(i), status: status === 'failed' ? 'passed' : 'failed' });
      }
    }
    return { name: `hypothesis-${h + 1}`, run: { cases }, author: `agent-${h + 1}` };
  });
  return { baseline, hypotheses };
}
