import { describe, expect, it } from 'vitest';
import type { TestCase } from '../parsers';
import { disqualification, isPass, rank, type Rankable } from './rank';
import { compareTests, type TestEvidence } from './test-delta';

const result = (index: number, overrides: Partial<Rankable> = {}): Rankable => ({
  index,
  exitCode: 0,
  timedOut: false,
  passed: 2,
  failed: 0,
  parsed: true,
  buildFailed: false,
  changedLines: 2,
  error: null,
  tests: null,
  ...overrides,
});

const names = (ranked: readonly Rankable[]): number[] => ranked.map((r) => r.index);

const evidence = (spec: Record<string, TestCase['status']>): TestEvidence => {
  const cases = Object.entries(spec).map(([id, status]) => ({ id, status }));
  const count = (s: TestCase['status']): number => cases.filter((c) => c.status === s).length;
  return {
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    parsed: true,
    buildFailed: false,
    cases,
  };
};

/** A run of `spec` judged against `reference`. */
const judged = (
  index: number,
  reference: TestEvidence,
  spec: Record<string, TestCase['status']>,
  overrides: Partial<Rankable> = {},
): Rankable => {
  const run = evidence(spec);
  return result(index, {
    passed: run.passed,
    failed: run.failed,
    exitCode: run.failed === 0 ? 0 : 1,
    tests: compareTests(reference, run),
    ...overrides,
  });
};

describe('rank without a reference', () => {
  it('puts passes first, then fewer failing, more passing, smaller diffs, given order', () => {
    const { ranked, winner } = rank([
      result(0, { exitCode: 101, passed: 0, failed: 2, changedLines: 0 }),
      result(1, { changedLines: 5 }),
      result(2, { exitCode: 101, passed: 1, failed: 1 }),
      result(3, { changedLines: 1 }),
      result(4, { changedLines: 1 }),
      result(5, { passed: 3, changedLines: 9 }),
    ]);
    expect(names(ranked)).toEqual([5, 3, 4, 1, 2, 0]);
    expect(winner?.index).toBe(5);
  });

  it('never counts a zero-test run as a pass, whatever its exit code (ctest, unittest with no tests)', () => {
    const zero = result(0, { passed: 0, failed: 0, exitCode: 0 });
    expect(disqualification(zero)).toBe('the run ran no tests');
    expect(rank([zero]).winner).toBeNull();
  });

  it('never counts an unreadable output as a pass, even with exit 0', () => {
    const unread = result(0, { parsed: false, passed: 0 });
    expect(disqualification(unread)).toBe('the test output could not be read');
  });

  it('never counts a run with a problem, a timeout, a failing test or a bad exit as a pass', () => {
    expect(isPass(result(0, { error: 'left files un-restored' }))).toBe(false);
    expect(isPass(result(0, { timedOut: true }))).toBe(false);
    expect(isPass(result(0, { failed: 1 }))).toBe(false);
    expect(isPass(result(0, { exitCode: 1, failed: 0 }))).toBe(false);
  });

  it('ranks a build failure below every run that ran tests, even one with many failures', () => {
    const { ranked } = rank([
      result(0, { buildFailed: true, passed: 0, failed: 0, exitCode: 1 }),
      result(1, { exitCode: 1, passed: 0, failed: 6 }),
      result(2, { parsed: false, passed: 0, exitCode: 1 }),
    ]);
    expect(names(ranked)).toEqual([1, 2, 0]);
  });

  it('ranks a run cut short by a timeout below complete runs', () => {
    const { ranked } = rank([
      result(0, { exitCode: null, timedOut: true, passed: 5, failed: 0 }),
      result(1, { exitCode: 101, passed: 1, failed: 1 }),
    ]);
    expect(names(ranked)).toEqual([1, 0]);
  });
});

describe('rank against the baseline', () => {
  const baseline = evidence({ a: 'passed', b: 'failed', c: 'failed', env: 'failed' });

  it('lets a fix win that leaves an environmental failure failing', () => {
    const fix = judged(0, baseline, { a: 'passed', b: 'passed', c: 'passed', env: 'failed' });
    const wrong = judged(1, baseline, { a: 'passed', b: 'failed', c: 'failed', env: 'failed' });
    const { winner } = rank([wrong, fix]);
    expect(winner?.index).toBe(0);
    expect(disqualification(wrong)).toBe('it fixed no failing test');
  });

  it('refuses a fix that breaks a test that passed at the baseline', () => {
    const run = judged(0, baseline, { a: 'failed', b: 'passed', c: 'passed', env: 'passed' });
    expect(disqualification(run)).toBe('it broke 1 test that passed before');
  });

  it('refuses a fix that loses a baseline test (deleted or deselected), unless allowed', () => {
    const run = judged(0, baseline, { a: 'passed', b: 'passed', env: 'failed' });
    expect(disqualification(run)).toBe('1 test that ran before did not run');
    expect(disqualification(run, { allowMissing: true })).toBeNull();
  });

  it('counts a baseline test that is newly skipped as missing', () => {
    const run = judged(0, baseline, { a: 'skipped', b: 'passed', c: 'passed', env: 'failed' });
    expect(run.tests?.missing).toEqual(['a']);
  });

  it('prefers more fixed, then fewer still failing, then the smaller diff', () => {
    const two = judged(
      0,
      baseline,
      { a: 'passed', b: 'passed', c: 'passed', env: 'failed' },
      {
        changedLines: 9,
      },
    );
    const one = judged(
      1,
      baseline,
      { a: 'passed', b: 'passed', c: 'failed', env: 'failed' },
      {
        changedLines: 1,
      },
    );
    const twoSmall = judged(
      2,
      baseline,
      { a: 'passed', b: 'passed', c: 'passed', env: 'failed' },
      {
        changedLines: 3,
      },
    );
    expect(names(rank([two, one, twoSmall]).ranked)).toEqual([2, 0, 1]);
  });

  it('lets a hypothesis win against a green baseline only by adding a passing test', () => {
    const green = evidence({ a: 'passed' });
    const same = judged(0, green, { a: 'passed' });
    const adds = judged(1, green, { a: 'passed', b: 'passed' });
    expect(disqualification(same)).toBe('the tests already passed, and it added no passing test');
    expect(disqualification(adds)).toBeNull();
  });

  it('judges by totals when the runner names no tests: a pass with as many tests wins', () => {
    const counted = { ...baseline, cases: [] };
    const allPass = result(0, {
      passed: 4,
      failed: 0,
      tests: compareTests(counted, { ...counted, passed: 4, failed: 0 }),
    });
    const fewer = result(1, {
      passed: 1,
      failed: 0,
      tests: compareTests(counted, { ...counted, passed: 1, failed: 0 }),
    });
    expect(disqualification(allPass)).toBeNull();
    expect(disqualification(fewer)).toBe('3 tests that ran before did not run');
  });

  it('by totals, a run that leaves failures cannot win: a fix of two that breaks one looks like a fix of one', () => {
    const counted = { ...baseline, cases: [] };
    const trade = result(0, {
      passed: 2,
      failed: 2,
      exitCode: 1,
      tests: compareTests(counted, { ...counted, passed: 2, failed: 2 }),
    });
    expect(disqualification(trade)).toMatch(/^failures remain and the runner names no tests/);
  });
});

describe('rank in a review round (against the checkpoint under review)', () => {
  const round = { reviewRound: true };
  const green = evidence({ a: 'passed', b: 'passed' });

  it('lets a change win that keeps every test passing, without fixing or adding one', () => {
    const same = judged(0, green, { a: 'passed', b: 'passed' });
    expect(disqualification(same, round)).toBeNull();
    expect(disqualification(same)).toBe('the tests already passed, and it added no passing test');
  });

  it('still refuses a change that breaks, loses or adds a failing test', () => {
    expect(disqualification(judged(0, green, { a: 'passed', b: 'failed' }), round)).toBe(
      'it broke 1 test that passed before',
    );
    expect(disqualification(judged(0, green, { a: 'passed' }), round)).toBe(
      '1 test that ran before did not run',
    );
    // A new test that fails counts as broken: the change is less green than the one reviewed.
    expect(
      disqualification(judged(0, green, { a: 'passed', b: 'passed', c: 'failed' }), round),
    ).toBe('it broke 1 test that passed before');
  });

  it('ranks as-green changes by size: the smaller change wins ties', () => {
    const big = judged(0, green, { a: 'passed', b: 'passed', c: 'passed' }, { changedLines: 9 });
    const small = judged(1, green, { a: 'passed', b: 'passed' }, { changedLines: 2 });
    const { winner, ranked } = rank([big, small], round);
    expect(winner?.index).toBe(1);
    expect(names(ranked)).toEqual([1, 0]);
  });

  it('a partial fix under review stays as green: its known failure may remain', () => {
    const partial = evidence({ a: 'passed', env: 'failed' });
    expect(disqualification(judged(0, partial, { a: 'passed', env: 'failed' }), round)).toBeNull();
  });
});
