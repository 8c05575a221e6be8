import { describe, expect, it } from 'vitest';
import { initialTaskState, reduceTask, canApply, type TaskState } from './task-reducer';

const at = (status: TaskState['status']): TaskState => ({ ...initialTaskState, status });

describe('reduceTask', () => {
  it('walks the happy path', () => {
    let state = initialTaskState;
    state = reduceTask(state, { type: 'task.preparing' });
    state = reduceTask(state, { type: 'baseline.started', command: ['pytest'] });
    state = reduceTask(state, { type: 'iteration.started', index: 1 });
    state = reduceTask(state, {
      type: 'iteration.awaiting_hypotheses',
      index: 1,
      wanted: 3,
      deadline: new Date(0).toISOString(),
    });
    state = reduceTask(state, { type: 'iteration.running', index: 1, hypotheses: [] });
    state = reduceTask(state, {
      type: 'review.ready',
      diffSha256: 'a'.repeat(64),
      flags: {} as never,
      size: 1,
    });
    state = reduceTask(state, { type: 'task.approved', sha256: 'a'.repeat(64), by: 'cli' });
    expect(state).toEqual({
      status: 'approved',
      iterationCount: 1,
      diffSha256: 'a'.repeat(64),
      approvedDiffSha256: 'a'.repeat(64),
    });
  });

  it('refuses an approval that is not under review, naming both', () => {
    expect(() =>
      reduceTask(at('iterating'), { type: 'task.approved', sha256: 'x', by: 'cli' }),
    ).toThrow("a task that is iterating cannot take 'task.approved'");
  });

  it('lets failure, cancel and interruption end any active state, and nothing final', () => {
    for (const status of [
      'queued',
      'preparing',
      'baseline',
      'iterating',
      'awaiting_hypotheses',
    ] as const) {
      expect(reduceTask(at(status), { type: 'task.cancelled', by: 'cli' }).status).toBe(
        'cancelled',
      );
      expect(canApply(at(status), { type: 'task.interrupted', reason: 'x' })).toBe(true);
    }
    for (const status of ['approved', 'rejected', 'failed', 'cancelled', 'interrupted'] as const) {
      expect(canApply(at(status), { type: 'task.failed', reason: 'x' })).toBe(false);
    }
  });

  it('an approval holds until a reopen: no new iteration, no reject', () => {
    const sha256 = 'a'.repeat(64);
    const approved = { ...at('approved'), approvedDiffSha256: sha256, iterationCount: 1 };
    expect(() => reduceTask(approved, { type: 'iteration.started', index: 2 })).toThrow(
      "a task that is approved cannot take 'iteration.started'",
    );
    expect(() => reduceTask(approved, { type: 'task.rejected', sha256, by: 'rita' })).toThrow(
      "a task that is approved cannot take 'task.rejected'",
    );
    expect(reduceTask(approved, { type: 'task.reopened', sha256, by: 'rita' })).toEqual({
      ...approved,
      status: 'awaiting_review',
      approvedDiffSha256: null,
    });
    // Under review (not approved), a new iteration still takes the task back to work.
    const underReview = { ...at('awaiting_review'), diffSha256: sha256, iterationCount: 1 };
    expect(reduceTask(underReview, { type: 'iteration.started', index: 2 })).toMatchObject({
      status: 'iterating',
      iterationCount: 2,
    });
  });

  it('only a task awaiting review takes a reject, and only an approved one a reopen', () => {
    for (const status of ['iterating', 'awaiting_hypotheses', 'rejected', 'cancelled'] as const) {
      expect(canApply(at(status), { type: 'task.rejected', sha256: 'x', by: 'rita' })).toBe(false);
    }
    for (const status of ['awaiting_review', 'rejected', 'iterating'] as const) {
      expect(canApply(at(status), { type: 'task.reopened', sha256: 'x', by: 'rita' })).toBe(false);
    }
    expect(
      canApply(at('awaiting_review'), { type: 'task.rejected', sha256: 'x', by: 'rita' }),
    ).toBe(true);
  });

  it('changes requested: from review only, back to waiting for the round iteration', () => {
    const sha256 = 'c'.repeat(64);
    const event = {
      type: 'task.changes_requested',
      sha256,
      by: 'rita',
      round: 1,
      iteration: 4,
      summary: 'use a guard clause',
      threads: [],
    } as const;
    const underReview = { ...at('awaiting_review'), diffSha256: sha256, iterationCount: 3 };
    // The diff under review stays the task's until the round puts up a new one.
    expect(reduceTask(underReview, event)).toEqual({
      ...underReview,
      status: 'awaiting_hypotheses',
      iterationCount: 4,
    });
    for (const status of ['approved', 'iterating', 'awaiting_hypotheses', 'rejected'] as const) {
      expect(() => reduceTask(at(status), event)).toThrow(
        `a task that is ${status} cannot take 'task.changes_requested'`,
      );
    }
  });

  it('events that carry only information keep the state', () => {
    const state = at('iterating');
    expect(
      reduceTask(state, { type: 'run.output', subject: 'a', iteration: 1, lines: ['x'] }),
    ).toBe(state);
  });
});
