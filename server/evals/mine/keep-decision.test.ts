import { describe, expect, it } from 'vitest';
import type { TestStatus } from '../../engine/parsers';
import type { HypothesisOutcome } from '../../engine/shadow';
import { decide, runResults, type RunResults } from './keep-decision';

const run = (tests: Record<string, TestStatus>): RunResults => ({
  ok: true,
  tests: new Map(Object.entries(tests)),
});
const broken = (why: string): RunResults => ({ ok: false, why });

describe('decide', () => {
  it('keeps fail→pass and pass→pass tests that behave the same in both runs of a tree', () => {
    const a = run({ t_new: 'failed', t_old: 'passed', t_both: 'failed' });
    const b = run({ t_new: 'passed', t_old: 'passed', t_both: 'failed' });
    expect(decide([a, a], [b, b])).toEqual({
      kept: true,
      failToPass: ['t_new'],
      passToPass: ['t_old'],
      flaky: [],
      failAtBoth: ['t_both'],
    });
  });

  it('counts a test the parent does not report as failing there', () => {
    const a = run({ t_old: 'passed' });
    const b = run({ t_new: 'passed', t_old: 'passed' });
    expect(decide([a, a], [b, b])).toMatchObject({ kept: true, failToPass: ['t_new'] });
  });

  it('leaves flaky tests out of both lists and keeps the rest', () => {
    const a1 = run({ t_new: 'failed', t_old: 'passed', t_flip: 'passed' });
    const a2 = run({ t_new: 'failed', t_old: 'passed', t_flip: 'failed' });
    const b = run({ t_new: 'passed', t_old: 'passed', t_flip: 'passed' });
    expect(decide([a1, a2], [b, b])).toMatchObject({
      kept: true,
      failToPass: ['t_new'],
      passToPass: ['t_old'],
      flaky: ['t_flip'],
    });
  });

  it('drops the commit as flaky when its only fail→pass test differs between the fix runs', () => {
    const a = run({ t_new: 'failed', t_old: 'passed' });
    const b1 = run({ t_new: 'passed', t_old: 'passed' });
    const b2 = run({ t_new: 'failed', t_old: 'passed' });
    expect(decide([a, a], [b1, b2])).toEqual({
      kept: false,
      why: 'flaky',
      reason: 'flaky t_new',
      flaky: ['t_new'],
    });
  });

  it('counts a test missing from one run of a tree as flaky', () => {
    const a = run({ t_new: 'failed' });
    const b1 = run({ t_new: 'passed' });
    const b2 = run({ t_other: 'passed' });
    expect(decide([a, a], [b1, b2])).toMatchObject({ kept: false, why: 'flaky' });
  });

  it('drops a commit whose new test fails before and after the fix', () => {
    const a = run({ t_new: 'failed', t_old: 'passed' });
    expect(decide([a, a], [a, a])).toEqual({
      kept: false,
      why: 'no-fail-to-pass',
      reason: 'no test goes from fail to pass (failing at both: t_new)',
      flaky: [],
    });
  });

  it('never counts a skipped test as failing before the fix', () => {
    const a = run({ t_new: 'skipped' });
    const b = run({ t_new: 'passed' });
    expect(decide([a, a], [b, b])).toMatchObject({ kept: false, why: 'no-fail-to-pass' });
  });

  it('drops a commit whose fix does not build, whatever the parent did', () => {
    const a = run({ t_new: 'failed' });
    expect(decide([a, a], [run({ t_new: 'passed' }), broken('no test ran')])).toEqual({
      kept: false,
      why: 'does-not-build',
      reason: 'does not build with the fix: no test ran',
      flaky: [],
    });
  });

  it('drops a commit whose tests do not run at the parent', () => {
    const b = run({ t_new: 'passed' });
    expect(
      decide([broken('it does not build'), broken('it does not build')], [b, b]),
    ).toMatchObject({ kept: false, why: 'no-tests-at-parent' });
  });

  it('names at most five flaky tests in the reason', () => {
    const names = ['t1', 't2', 't3', 't4', 't5', 't6', 't7'];
    const a = run(Object.fromEntries(names.map((n) => [n, 'failed'])));
    const b1 = run(Object.fromEntries(names.map((n) => [n, 'passed'])));
    expect(decide([a, a], [b1, a])).toMatchObject({
      reason: 'flaky t1, t2, t3, t4, t5 and 2 more',
    });
  });
});

const outcome = (fields: Partial<HypothesisOutcome>): HypothesisOutcome => ({
  name: 'h',
  exitCode: 1,
  signal: null,
  timedOut: false,
  durationMs: 10,
  passed: 1,
  failed: 1,
  skipped: 0,
  parsed: true,
  buildFailed: false,
  cases: [
    { id: 'test_a', status: 'passed' },
    { id: 'test_b', status: 'failed' },
  ],
  tests: null,
  disqualified: null,
  changedLines: 0,
  outputTail: '',
  error: null,
  ...fields,
});

describe('runResults', () => {
  it('gives the tests by id, without the run’s canaries', () => {
    const result = runResults(
      outcome({
        cases: [
          { id: 'test_a', status: 'passed' },
          { id: 'test_canary_abc::test_ok123', status: 'passed' },
          { id: 'test_canary_abc::test_bad456', status: 'failed' },
        ],
        canaries: { passing: 'test_ok123', failing: 'test_bad456', exitCode: 1 },
      }),
    );
    expect(result).toEqual({ ok: true, tests: new Map([['test_a', 'passed']]) });
  });

  it.each([
    ['a run that did not build', { buildFailed: true }, 'it does not build'],
    ['a run that timed out', { timedOut: true }, 'it timed out'],
    ['a run that failed to start', { error: 'spawn failed' }, 'spawn failed'],
    ['a run with no test', { cases: [], passed: 0, failed: 0 }, 'no test ran'],
    ['a run naming no test', { cases: [] }, 'its output counts tests but names none'],
    ['unreadable output', { cases: [], parsed: false }, 'its output could not be read'],
    [
      'a run whose results were forged',
      { tampered: 'the failing canary passed' },
      'its results cannot be believed: the failing canary passed',
    ],
  ])('has nothing to judge for %s', (_what, fields, why) => {
    expect(runResults(outcome(fields))).toEqual({ ok: false, why });
  });

  it('has nothing to judge for a hypothesis missing from the report', () => {
    expect(runResults(undefined)).toEqual({ ok: false, why: 'it did not run' });
  });
});

describe('runResults of a runner that stopped before its tests', () => {
  it('says no test ran when the canaries failed and no test passed', () => {
    const result = runResults(
      outcome({
        cases: [{ id: 'test_calc', status: 'failed' }],
        canaries: { passing: 'test_ok123', failing: 'test_bad456', exitCode: 2 },
        tampered: 'the failing canary test_bad456 was not reported',
      }),
    );
    expect(result).toEqual({
      ok: false,
      why: 'no test ran: the runner stopped before its tests (it reported test_calc failed)',
    });
  });

  it('still calls a run with passing tests and a wrong canary unbelievable', () => {
    const result = runResults(outcome({ tampered: 'the failing canary test_bad456 passed' }));
    expect(result).toEqual({
      ok: false,
      why: 'its results cannot be believed: the failing canary test_bad456 passed',
    });
  });
});
