import { describe, expect, it } from 'vitest';
import type { TaskView } from '../trpc/router-types';
import { fixTestsOf } from './fix-tests';

type Iteration = TaskView['iterations'][number];
type Hypothesis = Iteration['hypotheses'][number];
type Tests = NonNullable<Hypothesis['tests']>;

const delta = (fixed: string[], broken: string[] = [], missing: string[] = []): Tests => ({
  fixed,
  broken,
  stillFailing: [],
  missing,
  added: [],
  byId: true,
  counts: {
    fixed: fixed.length,
    broken: broken.length,
    stillFailing: 0,
    missing: missing.length,
    added: 0,
  },
});

const hypothesis = (name: string, tests: Tests | null): Hypothesis => ({
  name,
  origin: 'api',
  rank: 1,
  verdict: 'passed',
  passed: 1,
  failed: 0,
  skipped: 0,
  exitCode: 0,
  timedOut: false,
  durationMs: 10,
  changedLines: 1,
  mode: 'overlay',
  outputTail: '',
  error: null,
  buildFailed: false,
  tests,
  disqualified: null,
  sameTreeAs: null,
});

const iteration = (index: number, winner: string | null, hypotheses: Hypothesis[]): Iteration => ({
  index,
  status: 'done',
  winner,
  checkpointSha: winner === null ? null : 'a'.repeat(40),
  hypotheses,
});

describe('fixTestsOf', () => {
  it("adds up the winners' evidence over the iterations, ignoring the losers", () => {
    const tests = fixTestsOf([
      iteration(1, 'a', [hypothesis('a', delta(['t1'])), hypothesis('b', delta([], ['t9']))]),
      iteration(2, null, [hypothesis('c', delta([], ['t8']))]),
      iteration(3, 'd', [hypothesis('d', delta(['t2', 't1'], [], ['t7']))]),
    ]);
    expect(tests).toEqual({
      fixed: ['t1', 't2'],
      broken: [],
      missing: ['t7'],
      counts: { fixed: 2, broken: 0, missing: 1 },
    });
  });

  it('adds the counts up when a runner names no tests', () => {
    const counted: Tests = { ...delta([]), byId: false, counts: { ...delta([]).counts, fixed: 3 } };
    const tests = fixTestsOf([
      iteration(1, 'a', [hypothesis('a', counted)]),
      iteration(2, 'b', [hypothesis('b', counted)]),
    ]);
    expect(tests?.counts).toEqual({ fixed: 6, broken: 0, missing: 0 });
    expect(tests?.fixed).toEqual([]);
  });

  it('has nothing to say without a judged winner', () => {
    expect(fixTestsOf([])).toBeNull();
    expect(fixTestsOf([iteration(1, 'a', [hypothesis('a', null)])])).toBeNull();
  });
});
