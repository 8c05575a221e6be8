import { TestIds } from '../task-page/test-ids';
import type { FixTests } from './fix-tests';

/** Beside the diff: the tests it fixed, and the ones it broke or lost (none, for a clean fix). */
export function FixTestsSummary({ tests }: { readonly tests: FixTests }) {
  const { counts } = tests;
  return (
    <section className="fix-tests" aria-labelledby="fix-tests-heading">
      <h3 id="fix-tests-heading">What the fix does to the tests</h3>
      <TestIds label="Fixed" ids={tests.fixed} count={counts.fixed} none />
      <TestIds label="Broke" ids={tests.broken} count={counts.broken} none />
      <TestIds
        label="Missing (ran at the baseline, not now)"
        ids={tests.missing}
        count={counts.missing}
      />
    </section>
  );
}
