import { jsonResponse } from '../http/http-helpers';
import { parseTaskId } from '../http/schemas';
import { authenticate } from './auth';
import { restHandler, type TaskParams } from './handler';

/** `POST /api/v1/tasks/{id}/cancel` → the TaskView (no body needed). */
export const handleCancelTask = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  const task = await runtime.tasks.cancel(parseTaskId(params.id), actor);
  return jsonResponse(task);
});
