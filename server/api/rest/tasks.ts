import { jsonResponse } from '../http/http-helpers';
import { parseTaskId } from '../http/schemas';
import { authenticate } from './auth';
import { restHandler, type TaskParams } from './handler';
import { taskListQueryOf } from './task-list-query';

/**
 * `GET /api/v1/tasks?status=&owner=&team=&source=&q=&sort=&cursor=&limit=` →
 * `{"tasks":[TaskSummary…],"nextCursor":string|null}`; without parameters, the newest 100 by
 * creation as before.
 */
export const handleListTasks = restHandler<undefined>(async (request, { runtime }) => {
  const actor = await authenticate(request, runtime);
  const page = await runtime.tasks.listTasks(actor, taskListQueryOf(request));
  return jsonResponse({ tasks: page.tasks, nextCursor: page.nextCursor });
});

/** `GET /api/v1/tasks/{id}` → the TaskView. */
export const handleGetTask = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  const task = await runtime.tasks.getTask(parseTaskId(params.id), actor);
  return jsonResponse(task);
});
