import type { TestStatus } from '../../engine/parsers';
import type { HypothesisOutcome } from '../../engine/shadow';

// Whether a mined commit becomes an instance, from two runs of the parent with the commit's test
// changes (A) and two runs of the commit itself (B). Pure: the runs are values.

/** One run's tests by id, or why it has none to judge. */
export type RunResults =
  | { readonly ok: true; readonly tests: ReadonlyMap<string, TestStatus> }
  | { readonly ok: false; readonly why: string };

/** A shadow run's outcome as tests by id; a run that did not end in readable results has none. */
export function runResults(outcome: HypothesisOutcome | undefined): RunResults {
  if (outcome === undefined) return { ok: false, why: 'it did not run' };
  if (outcome.error !== null) return { ok: false, why: outcome.error };
  if (outcome.timedOut) return { ok: false, why: 'it timed out' };
  if (outcome.buildFailed) return { ok: false, why: 'it does not build' };
  // The run's canaries are the runner's tests too; they are nobody's instance.
  const canaries =
    outcome.canaries !== undefined && 'passing' in outcome.canaries
      ? [outcome.canaries.passing, outcome.canaries.failing]
      : [];
  const cases = outcome.cases.filter((c) => !canaries.some((name) => c.id.includes(name)));
  // Before the canaries' verdict: a run stopped before any test (a module that does not
  // import) reports no canary either, and "no test ran" is what happened.
  if (cases.length === 0) {
    if (!outcome.parsed) return { ok: false, why: 'its output could not be read' };
    return {
      ok: false,
      why:
        outcome.passed + outcome.failed === 0
          ? 'no test ran'
          : 'its output counts tests but names none',
    };
  }
  // The canaries' verdict fails also when the runner stopped before running any test (pytest's
  // collection error), reporting only what stopped it: that run did not build.
  if (outcome.tampered !== undefined && cases.every((c) => c.status !== 'passed')) {
    return {
      ok: false,
      why: `no test ran: the runner stopped before its tests (it reported ${someNames(cases.map((c) => `${c.id} ${c.status}`))})`,
    };
  }
  if (outcome.tampered !== undefined) {
    return { ok: false, why: `its results cannot be believed: ${outcome.tampered}` };
  }
  if (!outcome.parsed) return { ok: false, why: 'its output could not be read' };
  return { ok: true, tests: new Map(cases.map((c) => [c.id, c.status])) };
}

export type KeepDecision =
  | {
      readonly kept: true;
      readonly failToPass: readonly string[];
      readonly passToPass: readonly string[];
      /** Left out of both lists: their outcome differed between two runs of the same tree. */
      readonly flaky: readonly string[];
      /** Failing before and after the fix: in neither list. */
      readonly failAtBoth: readonly string[];
    }
  | {
      readonly kept: false;
      readonly why:
        | 'does-not-build'
        | 'no-tests-at-parent'
        | 'flaky'
        | 'no-fail-to-pass'
        | 'unsupported-change';
      readonly reason: string;
      readonly flaky: readonly string[];
    };

type Pair = readonly [RunResults, RunResults];
type Status = TestStatus | 'absent';

/** At most a few names, then how many more: a log line stays readable. */
export function someNames(ids: readonly string[], max = 5): string {
  const shown = ids.slice(0, max).join(', ');
  return ids.length > max ? `${shown} and ${ids.length - max} more` : shown;
}

const statusIn = (run: ReadonlyMap<string, TestStatus>, id: string): Status =>
  run.get(id) ?? 'absent';

/** Why one of the pair has no tests to judge; null when both have. */
function noResults(pair: Pair): string | null {
  for (const run of pair) if (!run.ok) return run.why;
  return null;
}

const testsOf = (run: RunResults): ReadonlyMap<string, TestStatus> =>
  run.ok ? run.tests : new Map<string, TestStatus>();

/** FAIL_TO_PASS, PASS_TO_PASS, or why the commit is left out. */
export function decide(a: Pair, b: Pair): KeepDecision {
  const noFix = noResults(b);
  if (noFix !== null) {
    return {
      kept: false,
      why: 'does-not-build',
      reason: `does not build with the fix: ${noFix}`,
      flaky: [],
    };
  }
  const noParent = noResults(a);
  if (noParent !== null) {
    return {
      kept: false,
      why: 'no-tests-at-parent',
      reason: `the tests do not run at the parent with the test changes: ${noParent}`,
      flaky: [],
    };
  }
  const [a1, a2, b1, b2] = [testsOf(a[0]), testsOf(a[1]), testsOf(b[0]), testsOf(b[1])];
  const ids = [...new Set([...a1.keys(), ...a2.keys(), ...b1.keys(), ...b2.keys()])].sort();
  const flaky = ids.filter(
    (id) => statusIn(a1, id) !== statusIn(a2, id) || statusIn(b1, id) !== statusIn(b2, id),
  );
  const steady = ids.filter((id) => !flaky.includes(id));
  const failToPass = steady.filter(
    (id) => statusIn(b1, id) === 'passed' && ['failed', 'absent'].includes(statusIn(a1, id)),
  );
  const passToPass = steady.filter(
    (id) => statusIn(a1, id) === 'passed' && statusIn(b1, id) === 'passed',
  );
  const failAtBoth = steady.filter(
    (id) => statusIn(a1, id) === 'failed' && statusIn(b1, id) === 'failed',
  );
  if (failToPass.length > 0) return { kept: true, failToPass, passToPass, flaky, failAtBoth };
  if (flaky.length > 0) {
    return { kept: false, why: 'flaky', reason: `flaky ${someNames(flaky)}`, flaky };
  }
  const both = failAtBoth.length === 0 ? '' : ` (failing at both: ${someNames(failAtBoth)})`;
  return {
    kept: false,
    why: 'no-fail-to-pass',
    reason: `no test goes from fail to pass${both}`,
    flaky,
  };
}
