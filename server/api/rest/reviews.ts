import { jsonResponse } from '../http/http-helpers';
import { readJsonBodyAs } from '../http/json-body';
import {
  bodyLimits,
  dismissReviewBodySchema,
  parseRecordId,
  parseTaskId,
  submitReviewBodySchema,
} from '../http/schemas';
import { authenticate, requireCommentScope, requireReviewerScope } from './auth';
import { restHandler, type ReviewParams, type TaskParams } from './handler';

/**
 * `POST /api/v1/tasks/{id}/reviews` → the TaskView after the review. One review: `comment`,
 * `request_changes` or `approve`, bound to the hash the reviewer saw, with its summary and new
 * threads. A comment needs a token with the agent or reviewer scope, a verdict the reviewer scope
 * (403); the service checks the person's rights and the rules an approval cannot skip
 * (STALE_DIFF, OPEN_THREADS, CHANGES_REQUESTED: 409).
 */
export const handleSubmitReview = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  requireCommentScope(actor);
  const id = parseTaskId(params.id);
  const review = await readJsonBodyAs(request, submitReviewBodySchema, bodyLimits.review);
  if (review.verdict !== 'comment') requireReviewerScope(actor);
  await runtime.reviews.submit(id, review, actor);
  return jsonResponse(await runtime.tasks.getTask(id, actor));
});

/**
 * `POST /api/v1/tasks/{id}/reviews/{reviewId}/dismiss` `{"reason"}` → the TaskView: a standing
 * request for changes set aside. Reviewer tokens only (403); the service lets only the reviewer
 * who made the request, or an admin, dismiss it.
 */
export const handleDismissReview = restHandler<ReviewParams>(
  async (request, { runtime }, params) => {
    const actor = await authenticate(request, runtime);
    requireReviewerScope(actor);
    const id = parseTaskId(params.id);
    const reviewId = parseRecordId(params.reviewId, 'review');
    const { reason } = await readJsonBodyAs(request, dismissReviewBodySchema, bodyLimits.small);
    await runtime.reviews.dismiss(id, reviewId, reason, actor);
    return jsonResponse(await runtime.tasks.getTask(id, actor));
  },
);
