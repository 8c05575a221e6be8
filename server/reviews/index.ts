// The review conversation: threads on lines of the diff, drafts, reviews (comment, request
// changes, approve) and the rules an approval cannot skip. The task services and the task store
// use the parts below; the transports use `ReviewService` through the runtime.
export { checkApproval, clearOnApproval } from './approval-rules';
export { moveThreads, postFixerReplies } from './move-threads';
export type * from './review-api';
export { defaultMaxReviewRounds, type ReviewServiceDeps, type TaskTransactor } from './review-deps';
export { ReviewService } from './review-service';
export { isPersonVerdict, reviewRequestOf, reviewSummaryOf } from './review-state';
export { submitReview } from './submit-review';
export {
  draftViewSchema,
  reviewHistoryItemSchema,
  reviewSummaryViewSchema,
  reviewVerdicts,
  threadListViewSchema,
  threadSides,
  threadViewSchema,
} from './review-view-schema';
