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
  /** With `cases` empty: every failing test, where the output named them all (types.ts). */
  readonly failing?: readonly string[];
}

/**
 * How a delta was found. `id`: both runs named every test. `inferred`: one or both named only
 * their failures, but the runs had the same tests by count, the run fails a subset of what the
 * reference failed and the change edits no test, so nothing broke and nothing was lost, and the
 * fixed tests are the reference's failures that no longer fail. `totals`: only the totals are
 * known; the counts are net changes, never facts about a test.
 */
export type DeltaBasis = 'id' | 'inferred' | 'totals';

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
  /** Absent in deltas stored before it existed: then `byId` says `id` or `totals`. */
  readonly basis?: DeltaBasis;
  readonly counts: {
    readonly fixed: number;
    readonly broken: number;
    readonly stillFailing: number;
    readonly missing: number;
    readonly added: number;
  };
}

/** A delta's basis; deltas stored before `basis` existed say it with `byId`. */
export const deltaBasis = (delta: Pick<TestDelta, 'byId' | 'basis'>): DeltaBasis =>
  delta.basis ?? (delta.byId ? 'id' : 'totals');

/** How many tests a run ran to a result (skipped ones did not run). */
export const ranTests = (e: TestEvidence): number => e.passed + e.failed;

const statusById = (cases: readonly TestCase[]): Map<string, TestCase['status']> =>
  new Map(cases.map((c) => [c.id, c.status]));

/** The ids of every failing test of `e`, or null when its output did not name them all. */
function failingIdsOf(e: TestEvidence): Set<string> | null {
  if (e.cases.length > 0) {
    return new Set(e.cases.filter((c) => c.status === 'failed').map((c) => c.id));
  }
  if (e.failed === 0) return new Set();
  return e.failing !== undefined && e.failing.length === e.failed ? new Set(e.failing) : null;
}

/** See `DeltaBasis`: the delta inferred from failing ids and totals, or null when it cannot be. */
function inferredDelta(reference: TestEvidence, run: TestEvidence): TestDelta | null {
  const before = failingIdsOf(reference);
  const now = failingIdsOf(run);
  if (before === null || now === null) return null;
  if (ranTests(reference) !== ranTests(run) || reference.skipped !== run.skipped) return null;
  if ([...now].some((id) => !before.has(id))) return null;
  const fixed = [...before].filter((id) => !now.has(id));
  const stillFailing = [...now];
  return {
    fixed,
    broken: [],
    stillFailing,
    missing: [],
    added: [],
    byId: false,
    basis: 'inferred',
    counts: {
      fixed: fixed.length,
      broken: 0,
      stillFailing: stillFailing.length,
      missing: 0,
      added: 0,
    },
  };
}

/**
 * Compares `run` with `reference` by test id where both name their tests; else, unless the
 * change edits tests (`testEdits`: a renamed test would pass for a fixed one), by inference from
 * their failing ids and totals; else by totals.
 */
export function compareTests(
  reference: TestEvidence,
  run: TestEvidence,
  options: { readonly testEdits?: boolean } = {},
): TestDelta {
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
      basis: 'id',
      counts: {
        fixed: fixed.length,
        broken: broken.length,
        stillFailing: stillFailing.length,
        missing: missing.length,
        added: added.length,
      },
    };
  }
  const inferred = options.testEdits === true ? null : inferredDelta(reference, run);
  if (inferred !== null) return inferred;
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
    basis: 'totals',
    counts: {
      fixed,
      broken,
      stillFailing: Math.min(reference.failed, run.failed),
      missing,
      added: Math.max(0, ranTests(run) - ranTests(reference)),
    },
  };
}
