import type { TaskSummary } from './task-api';
import type { TaskServiceDeps } from './task-service';
import { listTaskSummaries } from './task-views';

/** The newest tasks first: `limit` of them (default 100, at most 500). */
export function listTasks(
  deps: Pick<TaskServiceDeps, 'db'>,
  { limit }: { readonly limit?: number | undefined },
): Promise<readonly TaskSummary[]> {
  return listTaskSummaries(deps.db, Math.min(Math.max(limit ?? 100, 1), 500));
}
