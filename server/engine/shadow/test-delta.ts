import type { TestCase } from '../parsers';

/** What a run's output says about its tests, as the verdict reads it. */
export interface TestEvidence {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly parsed: boolean;
  readonly buildFailed: boolean;
  /** Each named test; empty when the runner prints counts only. */
  readonly cases: readonly TestCase[];
}

/**
 * A run against its reference (the baseline, or the checkpoint it builds on), test by test.
 * `missing`: ran at the reference, not now (deleted, deselected, newly skipped). `added`: passing
 * tests the reference did not have. Part of the REST and MCP contract as `tests`.
 */
export interface TestDelta {
  readonly fixed: readonly string[];
  readonly broken: readonly string[];
  readonly stillFailing: readonly string[];
  readonly missing: readonly string[];
  readonly added: readonly string[];
  /**
   * false when either run named no tests: the lists are then empty and `counts` holds what the
   * totals imply (a decrease in failures counts as fixed, a drop in the total as missing).
   */
  readonly byId: boolean;
  readonly counts: {
    readonly fixed: number;
    readonly broken: number;
    readonly stillFailing: number;
    readonly missing: number;
    readonly added: number;
  };
}

/** How many tests a run ran to a result (skipped ones did not run). */
export const ranTests = (e: TestEvidence): number => e.passed + e.failed;

const statusById = (cases: readonly TestCase[]): Map<string, TestCase['status']> =>
  new Map(cases.map((c) => [c.id, c.status]));

/** Compares `run` with `reference` by test id where both name their tests, else by totals. */
export function compareTests(reference: TestEvidence, run: TestEvidence): TestDelta {
  if (reference.cases.length > 0 && run.cases.length > 0) {
    const before = statusById(reference.cases);
    const now = statusById(run.cases);
    const fixed: string[] = [];
    const broken: string[] = [];
    const stillFailing: string[] = [];
    const missing: string[] = [];
    const added: string[] = [];
    for (const [id, was] of before) {
      if (was === 'skipped') continue;
      const is = now.get(id);
      if (is === undefined || is === 'skipped') missing.push(id);
      else if (was === 'failed' && is === 'passed') fixed.push(id);
      else if (was === 'failed') stillFailing.push(id);
      else if (is === 'failed') broken.push(id);
    }
    for (const [id, is] of now) {
      const was = before.get(id);
      if (was !== undefined && was !== 'skipped') continue;
      // A test the reference did not run: failing now is breaking, passing now is added.
      if (is === 'failed') broken.push(id);
      else if (is === 'passed') added.push(id);
    }
    return {
      fixed,
      broken,
      stillFailing,
      missing,
      added,
      byId: true,
      counts: {
        fixed: fixed.length,
        broken: broken.length,
        stillFailing: stillFailing.length,
        missing: missing.length,
        added: added.length,
      },
    };
  }
  // Totals only: fewer failures with as many tests is progress; which tests, nobody can say.
  const fixed = Math.max(0, reference.failed - run.failed);
  const broken = Math.max(0, run.failed - reference.failed);
  const missing = Math.max(0, ranTests(reference) - ranTests(run));
  return {
    fixed: [],
    broken: [],
    stillFailing: [],
    missing: [],
    added: [],
    byId: false,
    counts: {
      fixed,
      broken,
      stillFailing: Math.min(reference.failed, run.failed),
      missing,
      added: Math.max(0, ranTests(run) - ranTests(reference)),
    },
  };
}
