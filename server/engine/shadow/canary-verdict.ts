import type { TestCase, TestCounts } from '../parsers';
import type { CanaryPlan } from './canaries';

export interface CanaryVerdict {
  /** The run's counts without the canaries: what the verdict judges. */
  readonly counts: TestCounts;
  /** The exit code the run would have had without the failing canary. */
  readonly exitCode: number | null;
  /** Why the run's results cannot be believed; null when the canaries came out right. */
  readonly tampered: string | null;
}

type Names = Pick<CanaryPlan, 'passing' | 'failing' | 'failureExitCode'>;

/** Every case the runner gave the canary: its name is random, so any id containing it is its. */
const casesOf = (tests: readonly TestCase[], name: string): TestCase[] =>
  tests.filter((t) => t.id.includes(name));

const said: Readonly<Record<TestCase['status'], string>> = {
  passed: 'passing',
  failed: 'failing',
  skipped: 'skipped',
};

function statusProblem(which: string, name: string, cases: readonly TestCase[], want: string) {
  if (cases.length === 0) return `the ${which} canary ${name} was not reported`;
  const wrong = cases.find((c) => c.status !== want);
  return wrong === undefined
    ? null
    : `the ${which} canary ${name} was reported ${said[wrong.status]}`;
}

/**
 * Checks a run's canaries and takes them out of its counts. Only a run that ran to its end is
 * checked (a build failure, a timeout, a crash and unreadable output are judged as they are).
 * By test id when the runner names its tests, else by its totals: at least one failure and one
 * pass must be counted. An honest run exits with the runner's failure code because of the
 * failing canary; with nothing else failing, that is the exit code of a pass.
 */
export function judgeCanaries(
  plan: Names,
  counts: TestCounts,
  exitCode: number | null,
  ranToEnd: boolean,
): CanaryVerdict {
  const failing = casesOf(counts.tests, plan.failing);
  const passing = casesOf(counts.tests, plan.passing);
  const tests = counts.tests.filter((t) => !failing.includes(t) && !passing.includes(t));
  const byId = counts.tests.length > 0;
  // Both canaries leave the counts under whatever status the run gave them.
  const canaryCases = [...failing, ...passing];
  const tally = (status: TestCase['status']): number =>
    byId ? canaryCases.filter((c) => c.status === status).length : 0;
  const stripped: TestCounts = {
    ...counts,
    tests,
    passed: Math.max(0, counts.passed - (byId ? tally('passed') : 1)),
    failed: Math.max(0, counts.failed - (byId ? tally('failed') : 1)),
    skipped: Math.max(0, counts.skipped - tally('skipped')),
    // The failures named without a full list (`pytest -q`) name the failing canary too.
    ...(counts.failing === undefined
      ? {}
      : {
          failing: counts.failing.filter(
            (id) => !id.includes(plan.failing) && !id.includes(plan.passing),
          ),
        }),
  };
  if (!ranToEnd || !counts.parsed || counts.buildFailed) {
    return { counts: byId ? stripped : counts, exitCode, tampered: null };
  }
  const problem = byId
    ? (statusProblem('failing', plan.failing, failing, 'failed') ??
      statusProblem('passing', plan.passing, passing, 'passed'))
    : counts.failed < 1
      ? `the failing canary ${plan.failing} was not counted: the totals show no failure`
      : counts.passed < 1
        ? `the passing canary ${plan.passing} was not counted: the totals show no pass`
        : null;
  const tampered =
    problem ??
    (exitCode === 0
      ? `the command exited with 0 although the failing canary ${plan.failing} failed`
      : null);
  const onlyCanaryFailed = stripped.failed === 0 && exitCode === plan.failureExitCode;
  return {
    counts: stripped,
    exitCode: tampered === null && onlyCanaryFailed ? 0 : exitCode,
    tampered,
  };
}
