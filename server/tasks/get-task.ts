import { serverPathMask } from './server-paths';
import { requireTask } from './task-access';
import type { Actor, TaskView } from './task-api';
import type { TaskServiceDeps } from './task-service-deps';
import { loadTaskView } from './task-views';

/** One task as the API shows it (`GET /api/v1/tasks/{id}`); NOT_FOUND unless the actor sees it. */
export async function getTask(
  deps: Pick<TaskServiceDeps, 'db' | 'layout'> & Partial<Pick<TaskServiceDeps, 'maxReviewRounds'>>,
  { taskId, actor }: { readonly taskId: string; readonly actor: Actor },
): Promise<TaskView> {
  await requireTask(deps.db, taskId, actor, 'see');
  const view = await loadTaskView(deps.db, taskId, actor, {
    maxReviewRounds: deps.maxReviewRounds,
  });
  return serverPathMask(deps.layout, actor, taskId)(view);
}
