import { jsonResponse } from '../http/http-helpers';
import { parseTaskId } from '../http/schemas';
import { authenticate } from './auth';
import { restHandler, type TaskParams } from './handler';
import { parseListLimit } from './query';

/** `GET /api/v1/tasks[?limit=N]` → `{"tasks":[TaskSummary…]}`. */
export const handleListTasks = restHandler<undefined>(async (request, { runtime }) => {
  const actor = await authenticate(request, runtime);
  const limit = parseListLimit(request);
  const tasks = await runtime.tasks.listTasks(actor, limit === undefined ? undefined : { limit });
  return jsonResponse({ tasks });
});

/** `GET /api/v1/tasks/{id}` → the TaskView. */
export const handleGetTask = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  const task = await runtime.tasks.getTask(parseTaskId(params.id), actor);
  return jsonResponse(task);
});
