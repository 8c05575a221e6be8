import { jsonResponse } from '../http/http-helpers';
import { parseTaskId } from '../http/schemas';
import { authenticate, requireReviewerScope } from './auth';
import { restHandler, type TaskParams } from './handler';

/**
 * `POST /api/v1/tasks/{id}/reopen` → the TaskView: an approved task back to review. Reviewer
 * tokens only (403); a task that is not approved is INVALID_STATE (409).
 */
export const handleReopenTask = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  requireReviewerScope(actor);
  const task = await runtime.tasks.reopen(parseTaskId(params.id), actor);
  return jsonResponse(task);
});
