import { visibleTasks } from './task-access';
import type { Actor, TaskSummary } from './task-api';
import type { TaskServiceDeps } from './task-service';
import { listTaskSummaries } from './task-views';

/** The newest tasks the actor may see first: `limit` of them (default 100, at most 500). */
export function listTasks(
  deps: Pick<TaskServiceDeps, 'db'>,
  { limit, actor }: { readonly limit?: number | undefined; readonly actor: Actor },
): Promise<readonly TaskSummary[]> {
  return listTaskSummaries(deps.db, {
    limit: Math.min(Math.max(limit ?? 100, 1), 500),
    where: visibleTasks(actor),
    actor,
  });
}
