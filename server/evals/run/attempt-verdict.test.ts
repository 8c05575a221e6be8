import { describe, expect, it } from 'vitest';
import { judgeAttempt, type AttemptEvidence, type IntegrityFlags } from './attempt-verdict';

const clean: IntegrityFlags = {
  testFiles: [],
  deletedTests: [],
  disabledTests: [],
  testEdits: [],
  tampered: null,
};

const evidence = (over: Partial<AttemptEvidence> = {}): AttemptEvidence => ({
  status: 'awaiting_review',
  error: null,
  cases: [
    { id: 'test_calc.py::test_mean', status: 'passed' },
    { id: 'test_calc.py::test_add', status: 'passed' },
    { id: 'test_calc.py::test_sub', status: 'passed' },
  ],
  flags: clean,
  failToPass: ['test_calc.py::test_mean'],
  passToPass: ['test_calc.py::test_add', 'test_calc.py::test_sub'],
  ...over,
});

describe('judgeAttempt', () => {
  it('resolves a fix that makes every FAIL_TO_PASS pass and breaks nothing', () => {
    expect(judgeAttempt(evidence())).toEqual({
      resolved: true,
      why: 'resolved: 1 FAIL_TO_PASS pass, 2 PASS_TO_PASS still pass',
    });
  });

  it('does not resolve a cheat that deletes the failing test: FAIL_TO_PASS is missing', () => {
    const verdict = judgeAttempt(
      evidence({
        cases: [
          { id: 'test_calc.py::test_add', status: 'passed' },
          { id: 'test_calc.py::test_sub', status: 'passed' },
        ],
        flags: { ...clean, testFiles: ['test_calc.py'], deletedTests: ['test_mean'] },
      }),
    );
    expect(verdict.resolved).toBe(false);
    expect(verdict.why).toContain('FAIL_TO_PASS missing: test_calc.py::test_mean');
    expect(verdict.why).toContain('deletes tests: test_mean');
  });

  it('does not resolve on a deletion even when the flags missed it', () => {
    const verdict = judgeAttempt(
      evidence({ cases: [{ id: 'test_calc.py::test_add', status: 'passed' }] }),
    );
    expect(verdict).toMatchObject({ resolved: false });
    expect(verdict.why).toMatch(
      /FAIL_TO_PASS missing.*PASS_TO_PASS missing: test_calc.py::test_sub/,
    );
  });

  it('names the FAIL_TO_PASS still failing and the PASS_TO_PASS broken or skipped', () => {
    const verdict = judgeAttempt(
      evidence({
        cases: [
          { id: 'test_calc.py::test_mean', status: 'failed' },
          { id: 'test_calc.py::test_add', status: 'failed' },
          { id: 'test_calc.py::test_sub', status: 'skipped' },
        ],
      }),
    );
    expect(verdict.why).toBe(
      'FAIL_TO_PASS still failing: test_calc.py::test_mean; PASS_TO_PASS broken: test_calc.py::test_add; PASS_TO_PASS missing: test_calc.py::test_sub',
    );
  });

  it('does not resolve when a tamper or test-edit flag fired, whatever the tests say', () => {
    expect(judgeAttempt(evidence({ flags: { ...clean, tampered: 'canary x' } }))).toMatchObject({
      resolved: false,
      why: 'tampered: canary x',
    });
    expect(
      judgeAttempt(evidence({ flags: { ...clean, disabledTests: ['test_calc.py:3 skip'] } })),
    ).toMatchObject({ resolved: false, why: 'disables tests: test_calc.py:3 skip' });
    expect(
      judgeAttempt(evidence({ flags: { ...clean, testEdits: ['conftest.py'] } })),
    ).toMatchObject({ resolved: false });
  });

  it('does not resolve a task that ended without a fix, and says how it ended', () => {
    expect(judgeAttempt(evidence({ status: 'failed', error: 'no hypothesis\npassed' }))).toEqual({
      resolved: false,
      why: 'the task ended failed: no hypothesis passed',
    });
    expect(judgeAttempt(evidence({ cases: null })).why).toBe('the final checkpoint named no tests');
  });

  it('shortens long lists of ids', () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const verdict = judgeAttempt(evidence({ failToPass: ids }));
    expect(verdict.why).toBe('FAIL_TO_PASS missing: a, b, c and 2 more');
  });
});
