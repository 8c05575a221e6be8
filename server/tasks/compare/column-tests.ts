import type { TestCase } from '../../engine/parsers';
import type { TestDelta } from '../../engine/shadow';
import type { ColumnTests, KnownStatus } from './compare-matrix';

/** The stored columns of a run that say what its tests did. */
export interface StoredRun {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly parsed: boolean;
  readonly buildFailed: boolean;
  readonly error: string | null;
  /** JSON `[{id, status}]`; null when the run's tests were not kept (see `storedCases`). */
  readonly cases: unknown;
  /** JSON TestDelta against the run's reference; null without one. */
  readonly tests: unknown;
}

export interface ColumnRead {
  readonly tests: ColumnTests;
  /** Why the cells are not all facts, in words; null when they are. */
  readonly note: string | null;
}

const known: Record<TestCase['status'], KnownStatus> = {
  passed: 'pass',
  failed: 'fail',
  skipped: 'skipped',
};

const noteLimit = 200;
const short = (text: string): string =>
  text.length > noteLimit ? `${text.slice(0, noteLimit - 1)}…` : text;

function casesOf(stored: unknown): TestCase[] | null {
  if (!Array.isArray(stored)) return null;
  return (stored as unknown[]).filter(
    (c): c is TestCase =>
      typeof c === 'object' &&
      c !== null &&
      typeof (c as TestCase).id === 'string' &&
      ((c as TestCase).status === 'passed' ||
        (c as TestCase).status === 'failed' ||
        (c as TestCase).status === 'skipped'),
  );
}

/** A run's complete list of tests (every test it counted, named), or null. */
export function completeCases(run: Pick<StoredRun, 'cases' | 'passed' | 'failed' | 'skipped'>) {
  const cases = casesOf(run.cases);
  const total = run.passed + run.failed + run.skipped;
  return cases !== null && cases.length === total && total > 0 ? cases : null;
}

const statusMap = (cases: readonly TestCase[]): Map<string, KnownStatus> =>
  new Map(cases.map((c) => [c.id, known[c.status]]));

/**
 * What a column can say of each test of `run`, without guessing: the run's own list where it was
 * kept; for a run recorded before every hypothesis run kept its tests (`cases` null), what its
 * reference run's list and its stored delta prove; else nothing, and a note says why.
 * `reference`: the run it was judged against (the baseline or the checkpoint it built on).
 */
export function readColumn(run: StoredRun | null, reference: StoredRun | null): ColumnRead {
  if (run === null) return { tests: { evidence: 'not run' }, note: 'it has no run' };
  if (run.buildFailed) {
    return { tests: { evidence: 'not run' }, note: 'the build failed: no test ran' };
  }
  if (run.error !== null) return { tests: { evidence: 'not run' }, note: short(run.error) };
  if (!run.parsed) {
    return { tests: { evidence: 'unknown' }, note: 'its output could not be read as test results' };
  }
  const total = run.passed + run.failed + run.skipped;
  const cases = casesOf(run.cases);
  if (cases !== null) {
    if (cases.length === total) {
      return {
        tests: { evidence: 'by test', statuses: statusMap(cases), complete: true },
        note: null,
      };
    }
    if (cases.length === 0) {
      return { tests: { evidence: 'totals only' }, note: 'the runner printed totals only' };
    }
    if (cases.length === run.failed && cases.every((c) => c.status === 'failed')) {
      return failuresOnly(cases.map((c) => c.id));
    }
    return { tests: { evidence: 'unknown' }, note: 'its kept tests do not match its totals' };
  }
  return derived(run, reference);
}

function failuresOnly(ids: readonly string[]): ColumnRead {
  return {
    tests: {
      evidence: 'failures only',
      statuses: new Map(ids.map((id) => [id, 'fail' as const])),
      complete: false,
    },
    note: 'only its failing tests are named',
  };
}

const notKept = (why: string): ColumnRead => ({
  tests: { evidence: 'unknown' },
  note: `per-test results not kept (recorded before every run kept them)${why}`,
});

/**
 * A run recorded before every hypothesis run kept its tests. Where its delta is by id and its
 * reference named every test, the delta gives each test's status (see `TestDelta`); it is kept
 * only if it adds up to the run's own totals, so a wrong reference shows as not kept, not as
 * wrong cells. An inferred delta names exactly the run's failures (`stillFailing`).
 */
function derived(run: StoredRun, reference: StoredRun | null): ColumnRead {
  const delta = run.tests as TestDelta | null;
  if (delta === null || typeof delta !== 'object') return notKept('');
  const basis = delta.basis ?? (delta.byId ? 'id' : 'totals');
  if (basis === 'inferred' && delta.stillFailing.length === run.failed) {
    return failuresOnly(delta.stillFailing);
  }
  if (basis !== 'id') return notKept(', and its delta is by totals');
  const before = reference === null ? null : completeCases(reference);
  if (before === null) return notKept(', and its reference named no tests');
  const statuses = new Map<string, KnownStatus>();
  for (const c of before) {
    if (c.status !== 'skipped') statuses.set(c.id, known[c.status]);
  }
  const set = (ids: readonly string[], status: KnownStatus) => {
    for (const id of ids) statuses.set(id, status);
  };
  set(delta.fixed, 'pass');
  set(delta.added, 'pass');
  set(delta.broken, 'fail');
  set(delta.stillFailing, 'fail');
  set(delta.missing, 'missing');
  const tally = (status: KnownStatus) => [...statuses.values()].filter((s) => s === status).length;
  if (tally('pass') !== run.passed || tally('fail') !== run.failed) {
    return notKept(', and its delta does not add up against its reference');
  }
  return {
    tests: { evidence: 'derived', statuses, complete: false },
    note: 'derived from its reference run and its delta: "missing" is absent or newly skipped',
  };
}
