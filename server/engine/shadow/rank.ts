/** What the ranking looks at in one hypothesis's outcome. */
export interface Rankable {
  readonly index: number;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly passed: number;
  readonly failed: number;
  readonly parsed: boolean;
  readonly changedLines: number;
  /** Set when the run cannot be trusted (failed set-up, un-restored files, cancelled). */
  readonly error: string | null;
}

/** A clean pass: exit 0 in time, nothing wrong with the run, and no failing test if it was parsed. */
export function isPass(r: Rankable): boolean {
  return r.exitCode === 0 && !r.timedOut && r.error === null && !(r.parsed && r.failed > 0);
}

const byFlag = (a: boolean, b: boolean): number => Number(b) - Number(a);

/**
 * Counts that describe the whole run. A run that timed out or went wrong was cut short: whatever
 * summary it printed before (cargo prints one per test binary) covers only part of the tests.
 */
const complete = (r: Rankable): boolean => r.parsed && !r.timedOut && r.error === null;

/**
 * Passed before failed; complete parsed results before the rest (an unreadable or cut-short run
 * tells us least); fewer failing tests; more passing tests; a smaller diff; then the order given.
 */
export function compareRankables(a: Rankable, b: Rankable): number {
  return (
    byFlag(isPass(a), isPass(b)) ||
    byFlag(complete(a), complete(b)) ||
    a.failed - b.failed ||
    b.passed - a.passed ||
    a.changedLines - b.changedLines ||
    a.index - b.index
  );
}

export function rank<T extends Rankable>(results: readonly T[]): { ranked: T[]; winner: T | null } {
  const ranked = [...results].sort(compareRankables);
  const top = ranked[0];
  return { ranked, winner: top !== undefined && isPass(top) ? top : null };
}
