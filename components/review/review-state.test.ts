import { describe, expect, it } from 'vitest';
import type { ReviewHistoryItem, ReviewSummary } from '../trpc/router-types';
import {
  dismissableRequests,
  reviewStateText,
  submittedText,
  threadCountsText,
} from './review-state';

const summary = (overrides: Partial<ReviewSummary> = {}): ReviewSummary => ({
  round: 1,
  maxRounds: 3,
  state: 'changes_requested',
  summary: 'Please explain the blank line.',
  changesRequestedBy: ['alice'],
  openThreads: [],
  outdatedThreads: 0,
  resolvedThreads: 0,
  ...overrides,
});

const request = (overrides: Partial<ReviewHistoryItem> = {}): ReviewHistoryItem => ({
  id: 'review1',
  verdict: 'request_changes',
  by: 'alice',
  summary: null,
  sha256: 'a'.repeat(64),
  at: '2026-12-01T10:00:00.000Z',
  cleared: null,
  ...overrides,
});

describe('review state', () => {
  it('says who asked for changes and which round it is', () => {
    expect(reviewStateText(summary())).toBe('changes requested by alice · review round 1 of 3');
    expect(reviewStateText(summary({ state: 'none', round: 0, changesRequestedBy: [] }))).toBe(
      'not reviewed yet · review round 0 of 3',
    );
    expect(reviewStateText(summary({ state: 'approved', changesRequestedBy: [] }))).toBe(
      'approved · review round 1 of 3',
    );
  });

  it('counts threads, leaving out what is zero but the open ones', () => {
    expect(threadCountsText(summary(), 0)).toBe('0 open threads');
    expect(threadCountsText(summary({ resolvedThreads: 2, outdatedThreads: 1 }), 1)).toBe(
      '1 open thread · 2 resolved · 1 outdated',
    );
  });

  it('offers a person their own standing requests to dismiss, and an admin everyone’s', () => {
    const history = [
      request(),
      request({ id: 'review2', by: 'bob' }),
      request({ id: 'review3', cleared: { by: 'alice', how: 'approved', reason: null, at: '' } }),
      request({ id: 'review4', verdict: 'comment' }),
    ];
    expect(
      dismissableRequests(history, { username: 'alice', role: 'reviewer' }).map((r) => r.id),
    ).toEqual(['review1']);
    expect(
      dismissableRequests(history, { username: 'root', role: 'admin' }).map((r) => r.id),
    ).toEqual(['review1', 'review2']);
    expect(dismissableRequests(history, null)).toEqual([]);
  });

  it('says what a submitted review did', () => {
    expect(submittedText('request_changes', 'abc')).toBe('Requested changes to the diff abc.');
    expect(submittedText('approve', 'abc')).toBe('Approved the diff abc.');
    expect(submittedText('comment', 'abc')).toBe('Commented on the diff abc.');
  });
});
