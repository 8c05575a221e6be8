import { describe, expect, it } from 'vitest';
import { disqualification } from './rank';
import { compareTests, type TestEvidence } from './test-delta';

const evidence = (passed: number, failed: number, failing?: string[]): TestEvidence => ({
  passed,
  failed,
  skipped: 0,
  parsed: true,
  buildFailed: false,
  cases: [],
  ...(failing === undefined ? {} : { failing }),
});

const judged = (reference: TestEvidence, run: TestEvidence, testEdits = false) => {
  const tests = compareTests(reference, run, { testEdits });
  const rankable = {
    ...run,
    index: 0,
    exitCode: 1,
    timedOut: false,
    changedLines: 1,
    error: null,
    tests,
  };
  return { tests, disqualified: disqualification(rankable) };
};

describe('compareTests by inference from failing ids and totals', () => {
  const reference = evidence(5, 2, ['t::fixme', 't::env']);

  it('a fix next to a pre-existing failure: fixed by id, inferred, and it wins', () => {
    const { tests, disqualified } = judged(reference, evidence(6, 1, ['t::env']));
    expect(tests).toMatchObject({
      basis: 'inferred',
      byId: false,
      fixed: ['t::fixme'],
      stillFailing: ['t::env'],
      broken: [],
      counts: { fixed: 1, broken: 0, stillFailing: 1, missing: 0 },
    });
    expect(disqualified).toBeNull();
  });

  it('a new failing id, a changed total or a test edit leaves totals only: it cannot win', () => {
    for (const [run, edits] of [
      [evidence(6, 1, ['t::other']), false],
      [evidence(7, 1, ['t::env']), false],
      [evidence(6, 1, ['t::env']), true],
      [evidence(6, 1), false],
    ] as const) {
      const { tests, disqualified } = judged(reference, run, edits);
      expect(tests.basis).toBe('totals');
      expect(tests.fixed).toEqual([]);
      expect(disqualified).toMatch(/names no tests/);
    }
  });

  it('a reference named by id and a run naming only failures infer alike', () => {
    const byId: TestEvidence = {
      ...evidence(1, 2),
      cases: [
        { id: 'a', status: 'passed' },
        { id: 'b', status: 'failed' },
        { id: 'c', status: 'failed' },
      ],
    };
    expect(compareTests(byId, evidence(2, 1, ['c'])).fixed).toEqual(['b']);
  });
});
