import { describe, expect, it } from 'vitest';
import { canApply, taskStatuses } from '../engine/lifecycle';
import { initialTaskState, reduceTask } from '../engine/loop';
import { parsePromoteInput } from './promote-input';
import {
  checkPromotableHypothesis,
  checkPromotableTask,
  type PromotionCandidate,
  type PromotionIteration,
} from './promote-rules';

const iteration: PromotionIteration = { index: 2, winner: 'small' };
const passed: PromotionCandidate = {
  name: 'long',
  verdict: 'passed',
  error: null,
  disqualified: null,
};

describe('checkPromotableTask', () => {
  it('lets only a task awaiting review through', () => {
    for (const status of taskStatuses) {
      const check = () => {
        checkPromotableTask({ id: 't', status });
      };
      if (status === 'awaiting_review') expect(check).not.toThrow();
      else if (status === 'approved') {
        expect(check).toThrow(
          'task t is approved: a reviewer must reopen it before another hypothesis can be promoted',
        );
      } else {
        expect(check).toThrow(
          `task t is ${status}: only a task awaiting review can have a runner-up promoted`,
        );
      }
    }
  });
});

describe('checkPromotableHypothesis', () => {
  it('returns the winner a passing runner-up replaces', () => {
    expect(checkPromotableHypothesis('t', iteration, 'long', passed)).toBe('small');
  });

  it('refuses each ineligible hypothesis, saying why', () => {
    const refusal = (
      candidate: Parameters<typeof checkPromotableHypothesis>[3],
      it = iteration,
    ) => {
      try {
        checkPromotableHypothesis('t', it, candidate?.name ?? 'ghost', candidate);
      } catch (error) {
        return `${(error as { code: string }).code}: ${(error as Error).message}`;
      }
      return 'allowed';
    };
    expect(refusal(null)).toBe(
      `NOT_FOUND: no hypothesis "ghost" in iteration 2 of task t (only the newest iteration's hypotheses can be promoted)`,
    );
    expect(refusal(passed, { index: 2, winner: null })).toBe(
      'INVALID_STATE: iteration 2 of task t has no winner under review',
    );
    expect(refusal({ ...passed, name: 'small', verdict: 'winner' })).toBe(
      'INVALID_STATE: cannot promote small: it is already the diff under review',
    );
    expect(refusal({ ...passed, verdict: 'error', error: 'the sandbox could not start' })).toBe(
      'INVALID_STATE: cannot promote long: its run failed: the sandbox could not start',
    );
    expect(
      refusal({
        ...passed,
        verdict: 'failed',
        disqualified: 'it broke 2 tests that passed before',
      }),
    ).toBe(
      'INVALID_STATE: cannot promote long: it is disqualified: it broke 2 tests that passed before',
    );
    expect(refusal({ ...passed, verdict: 'pending' })).toBe(
      'INVALID_STATE: cannot promote long: it did not pass (pending)',
    );
  });

  it('needs a finished iteration', () => {
    expect(() => checkPromotableHypothesis('t', null, 'long', null)).toThrow(
      'task t has no finished iteration',
    );
  });
});

describe('parsePromoteInput', () => {
  it('keeps the reason trimmed', () => {
    expect(parsePromoteInput({ hypothesis: 'long', reason: '  clearer\n' })).toEqual({
      hypothesis: 'long',
      reason: 'clearer',
    });
  });

  it('refuses an empty or overlong reason and a missing name, naming the field', () => {
    expect(() => parsePromoteInput({ hypothesis: 'long', reason: ' ' })).toThrow(
      'reason: say why this hypothesis should be reviewed instead of the ranked winner',
    );
    expect(() => parsePromoteInput({ hypothesis: 'long', reason: 'x'.repeat(2001) })).toThrow(
      'reason: a reason may hold at most 2,000 characters',
    );
    expect(() => parsePromoteInput({ hypothesis: '', reason: 'why' })).toThrow(
      'hypothesis: name the hypothesis to promote',
    );
    expect(parsePromoteInput({ hypothesis: 'long', reason: 'x'.repeat(2000) }).reason).toHaveLength(
      2000,
    );
  });
});

describe('the lifecycle of a promotion', () => {
  it('takes review.promoted only under review, then the new review.ready, which clears an approval', () => {
    expect(taskStatuses.filter((status) => canApply(status, 'review.promoted'))).toEqual([
      'awaiting_review',
    ]);
    const state = { ...initialTaskState, status: 'awaiting_review' as const, diffSha256: 'old' };
    const promoted = reduceTask(state, {
      type: 'review.promoted',
      iteration: 1,
      hypothesis: 'long',
      passedOver: 'small',
      reason: 'clearer',
      by: 'rita',
      checkpointSha: 'c'.repeat(40),
    });
    expect(promoted).toBe(state);
    const ready = reduceTask(
      { ...promoted, approvedDiffSha256: 'old' },
      {
        type: 'review.ready',
        diffSha256: 'new',
        flags: {} as never,
        size: 1,
      },
    );
    expect(ready).toMatchObject({
      status: 'awaiting_review',
      diffSha256: 'new',
      approvedDiffSha256: null,
    });
  });
});
