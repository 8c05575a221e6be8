import { plural } from '../format';
import type { ReviewHistoryItem, ReviewSummary, ReviewVerdict } from '../trpc/router-types';

/** Who is looking at the page: their own requests for changes are theirs to dismiss. */
export interface Viewer {
  readonly username: string;
  readonly role: 'admin' | 'reviewer' | 'author';
}

const stateWords: Readonly<Record<ReviewSummary['state'], string>> = {
  none: 'not reviewed yet',
  commented: 'commented',
  changes_requested: 'changes requested',
  approved: 'approved',
  rejected: 'rejected',
};

/** "changes requested by alice, bob · review round 1 of 3". */
export function reviewStateText(review: ReviewSummary): string {
  const state =
    review.state === 'changes_requested' && review.changesRequestedBy.length > 0
      ? `${stateWords.changes_requested} by ${review.changesRequestedBy.join(', ')}`
      : stateWords[review.state];
  return `${state} · review round ${review.round} of ${review.maxRounds}`;
}

/** "2 open threads · 1 resolved · 1 outdated" (the parts that are not zero; open always). */
export function threadCountsText(review: ReviewSummary, open: number): string {
  return [
    plural(open, 'open thread'),
    ...(review.resolvedThreads > 0 ? [`${review.resolvedThreads} resolved`] : []),
    ...(review.outdatedThreads > 0 ? [`${review.outdatedThreads} outdated`] : []),
  ].join(' · ');
}

/**
 * The requests for changes that still stand and that this person may set aside: their own, or
 * (an admin) anyone's.
 */
export function dismissableRequests(
  history: readonly ReviewHistoryItem[],
  viewer: Viewer | null,
): ReviewHistoryItem[] {
  if (viewer === null) return [];
  return history.filter(
    (item) =>
      item.verdict === 'request_changes' &&
      item.cleared === null &&
      (viewer.role === 'admin' || item.by === viewer.username),
  );
}

/** What the page says once a review went in. */
export function submittedText(verdict: ReviewVerdict, sha256: string): string {
  const what =
    verdict === 'approve'
      ? 'Approved'
      : verdict === 'request_changes'
        ? 'Requested changes to'
        : 'Commented on';
  return `${what} the diff ${sha256}.`;
}
