import { describe, expect, it } from 'vitest';
import { taskActions, type TaskCan } from './task-actions';

const none: TaskCan = {
  submit: false,
  cancel: false,
  rollback: false,
  review: false,
  comment: false,
  reopen: false,
};
const driving: TaskCan = { ...none, submit: true, cancel: true, rollback: true };

describe('taskActions', () => {
  it('offers cancel, roll back and hypotheses on a running task the person may drive', () => {
    const actions = taskActions(driving, 'awaiting_hypotheses', 'awaiting_hypotheses');
    expect(actions.cancel).toEqual({ shown: true, enabled: true });
    expect(actions.rollback).toEqual({ shown: true, enabled: true });
    expect(actions.submit).toBe(true);
    expect(actions.review).toBe(false);
  });

  it('hides cancel from someone the server does not let cancel', () => {
    const actions = taskActions(none, 'iterating', 'iterating');
    expect(actions.cancel.shown).toBe(false);
    expect(actions.rollback.shown).toBe(false);
    expect(actions.submit).toBe(false);
  });

  it('lets a reviewer approve a task under review; an author is told they may not', () => {
    const reviewer = taskActions({ ...none, review: true }, 'awaiting_review', 'awaiting_review');
    expect(reviewer.review).toBe(true);
    expect(reviewer.reviewRefused).toBe(false);
    const author = taskActions(
      { ...none, submit: true, rollback: true },
      'awaiting_review',
      'awaiting_review',
    );
    expect(author.review).toBe(false);
    expect(author.reviewRefused).toBe(true);
    // Under review: still open to a new hypothesis and to a roll back.
    expect(author.submit).toBe(true);
    expect(author.rollback).toEqual({ shown: true, enabled: true });
  });

  it('says nothing about reviewing while the stored view lags the stream', () => {
    const actions = taskActions(driving, 'iterating', 'awaiting_review');
    expect(actions.review).toBe(false);
    expect(actions.reviewRefused).toBe(false);
  });

  it('offers only reopen on an approved task, to whoever may reopen it', () => {
    const reviewer = taskActions({ ...none, reopen: true }, 'approved', 'approved');
    expect(reviewer.reopen).toBe(true);
    expect(reviewer.submit).toBe(false);
    expect(reviewer.rollback.shown).toBe(false);
    expect(taskActions(none, 'approved', 'approved').reopen).toBe(false);
  });

  it('offers nothing on a finished task', () => {
    const actions = taskActions(none, 'rejected', 'rejected');
    expect(actions).toMatchObject({ submit: false, review: false, reopen: false });
    expect(actions.cancel.shown || actions.rollback.shown).toBe(false);
  });
});
