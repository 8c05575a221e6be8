import type { ReviewSummary } from '../trpc/router-types';
import { CommentBody } from './conversation/comment-body';
import { reviewStateText, threadCountsText } from './review-state';

/**
 * Where the review conversation stands: the standing verdict (who asked for changes), the round,
 * the threads, and the newest summary a person wrote.
 */
export function ReviewStateLine({
  review,
  openThreads,
}: {
  readonly review: ReviewSummary;
  /** Open threads on the diff shown. */
  readonly openThreads: number;
}) {
  return (
    <div className={`review-state review-state-${review.state}`}>
      <p role="status" aria-label="Review state">
        <strong>Review:</strong> {reviewStateText(review)} · {threadCountsText(review, openThreads)}
      </p>
      {review.summary === null ? null : (
        <div className="review-summary">
          <p className="muted">Latest summary:</p>
          <CommentBody body={review.summary} />
        </div>
      )}
    </div>
  );
}
