import type { TaskView } from './task-api';
import type { TaskServiceDeps } from './task-service';
import { loadTaskView } from './task-views';

/** One task as the API shows it (`GET /api/v1/tasks/{id}`). */
export function getTask(
  deps: Pick<TaskServiceDeps, 'db'>,
  { taskId }: { readonly taskId: string },
): Promise<TaskView> {
  return loadTaskView(deps.db, taskId);
}
