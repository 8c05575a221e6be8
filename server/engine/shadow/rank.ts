import { unreadableReason } from './failure-cause';
import { deltaBasis, type TestDelta } from './test-delta';

/** What the ranking looks at in one hypothesis's outcome. */
export interface Rankable {
  readonly index: number;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly passed: number;
  readonly failed: number;
  readonly parsed: boolean;
  /** The code did not build: no test ran. */
  readonly buildFailed: boolean;
  readonly changedLines: number;
  /** Set when the run cannot be trusted (failed set-up, un-restored files, cancelled). */
  readonly error: string | null;
  /** Against the reference run (the baseline or the checkpoint built on); null without one. */
  readonly tests: TestDelta | null;
  /** Set when the run forged its results (its canaries or its report said so). */
  readonly tampered?: string | null;
}

export interface JudgeOptions {
  /** Whether baseline tests may go missing (the task allows test edits). */
  readonly allowMissing?: boolean;
  /**
   * A review round: the reference is the checkpoint under review (usually green) and the
   * reviewer's comments are the hypotheses' reason, so a winner need not fix a failure or add a
   * test; it must stay as green as the reference, and ties go to the smaller change.
   */
  readonly reviewRound?: boolean;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * Why a run cannot be a pass, or null when it is one. Zero tests, an unreadable output and a
 * build failure are never passes, whatever the exit code: a runner that found nothing to run
 * exits 0 too (`ctest` with no tests, `unittest` discovering none).
 *
 * Without a reference the run must pass outright. Against one it must break nothing that passed,
 * lose no test (unless allowed) and fix at least one failure, or, when the reference had none,
 * add a passing test. Failures it leaves as they were do not disqualify it: a test that fails for
 * an environmental reason must not block every fix.
 */
export function disqualification(r: Rankable, options: JudgeOptions = {}): string | null {
  if (r.tampered != null) return `tampered: ${r.tampered}`;
  if (r.error !== null) return r.error;
  if (r.timedOut) return 'the run timed out';
  if (r.buildFailed) return 'the build failed';
  if (!r.parsed) return unreadableReason(r);
  if (r.passed + r.failed === 0) return 'the run ran no tests';
  const delta = r.tests;
  if (delta === null) {
    if (r.failed > 0) return `${plural(r.failed, 'test')} failed`;
    if (r.exitCode !== 0) return `the command exited with ${String(r.exitCode)}`;
    return null;
  }
  const { counts } = delta;
  if (counts.broken > 0) return `it broke ${plural(counts.broken, 'test')} that passed before`;
  if (counts.missing > 0 && options.allowMissing !== true) {
    return `${plural(counts.missing, 'test')} that ran before did not run`;
  }
  if (r.failed === 0 && r.exitCode !== 0) {
    return `no test failed, but the command exited with ${String(r.exitCode)}`;
  }
  // By totals alone a fix of two that breaks one looks like a fix of one: with failures left, only
  // test names (or failing ids the verdict could infer from, test-delta.ts) show that nothing
  // that passed now fails.
  if (deltaBasis(delta) === 'totals' && r.failed > 0) {
    return 'failures remain and the runner names no tests, so nobody can tell whether it broke one (make it name them: pytest -v, --junitxml, a verbose reporter)';
  }
  const referenceFailures = counts.fixed + counts.stillFailing;
  if (options.reviewRound === true) {
    return r.failed > referenceFailures
      ? `it is less green than the diff under review: ${plural(r.failed, 'test')} failed, ${referenceFailures} before`
      : null;
  }
  if (referenceFailures > 0 && counts.fixed === 0) return 'it fixed no failing test';
  if (referenceFailures === 0 && counts.added === 0) {
    return 'the tests already passed, and it added no passing test';
  }
  return null;
}

/** A clean pass (see `disqualification`). */
export function isPass(r: Rankable, options: JudgeOptions = {}): boolean {
  return disqualification(r, options) === null;
}

/**
 * Tiers, best first: passes; runs that ran tests to the end; runs that ran tests but were cut
 * short (a timeout or a fault leaves a partial summary); runs whose output told nothing (zero
 * tests, unreadable); build failures, below every run that ran tests; last, runs that forged
 * their results (nothing they report can be believed).
 */
function tier(r: Rankable, options: JudgeOptions): number {
  if (r.tampered != null) return 5;
  if (isPass(r, options)) return 0;
  if (r.buildFailed) return 4;
  if (!r.parsed || r.passed + r.failed === 0) return 3;
  if (r.timedOut || r.error !== null) return 2;
  return 1;
}

const fixedOf = (r: Rankable): number => r.tests?.counts.fixed ?? 0;
const brokenOf = (r: Rankable): number => r.tests?.counts.broken ?? 0;

/**
 * Tier; more fixed; fewer still failing; fewer broken; more passing; a smaller diff; given order.
 * In a review round the reviewer's comments are the reason for every candidate: among those as
 * green as each other, the smaller change wins.
 */
export function compareRankables(a: Rankable, b: Rankable, options: JudgeOptions = {}): number {
  if (options.reviewRound === true) {
    return (
      tier(a, options) - tier(b, options) ||
      a.failed - b.failed ||
      a.changedLines - b.changedLines ||
      a.index - b.index
    );
  }
  return (
    tier(a, options) - tier(b, options) ||
    fixedOf(b) - fixedOf(a) ||
    a.failed - b.failed ||
    brokenOf(a) - brokenOf(b) ||
    b.passed - a.passed ||
    a.changedLines - b.changedLines ||
    a.index - b.index
  );
}

export function rank<T extends Rankable>(
  results: readonly T[],
  options: JudgeOptions = {},
): { ranked: T[]; winner: T | null } {
  const ranked = [...results].sort((a, b) => compareRankables(a, b, options));
  const top = ranked[0];
  return { ranked, winner: top !== undefined && isPass(top, options) ? top : null };
}
