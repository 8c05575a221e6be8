import { jsonResponse } from '../http/http-helpers';
import { readJsonBodyAs } from '../http/json-body';
import { bodyLimits, parseTaskId, reviewBodySchema } from '../http/schemas';
import { authenticate, requireReviewerScope } from './auth';
import { restHandler, type TaskParams } from './handler';

/**
 * `POST /api/v1/tasks/{id}/review` → the TaskView. Reviewer tokens only (403); approving a hash
 * that is not the current diff's is STALE_DIFF (409) from the service.
 */
export const handleReview = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  requireReviewerScope(actor);
  const id = parseTaskId(params.id);
  const review = await readJsonBodyAs(request, reviewBodySchema, bodyLimits.small);
  const task = await runtime.tasks.review(id, review, actor);
  return jsonResponse(task);
});
