import type { TaskSummary } from '../trpc/router-types';

/** A batch's size, as the service takes it (server/batches/batch-api.ts, CreateBatchInput). */
export const minMembers = 2;
export const maxMembers = 8;

export type PickableTask = Pick<TaskSummary, 'id' | 'title' | 'source' | 'owner' | 'updatedAt'>;

export interface RepositoryGroup {
  /** The Git URL the tasks were created from. */
  readonly url: string;
  readonly tasks: readonly PickableTask[];
}

/**
 * The approved tasks a batch can take, by repository (sorted by URL; the tasks in the list's
 * order). A batch combines commits of one Git URL, so uploaded archives are left out (counted).
 */
export function groupByRepository(tasks: readonly PickableTask[]): {
  readonly groups: readonly RepositoryGroup[];
  readonly archives: number;
} {
  const byUrl = new Map<string, PickableTask[]>();
  let archives = 0;
  for (const task of tasks) {
    if (task.source.kind !== 'git') {
      archives += 1;
      continue;
    }
    const group = byUrl.get(task.source.url);
    if (group === undefined) byUrl.set(task.source.url, [task]);
    else group.push(task);
  }
  const groups = [...byUrl]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([url, members]) => ({ url, tasks: members }));
  return { groups, archives };
}

/** Checked goes last (the batch applies members in the order they were checked); unchecked goes. */
export function toggleTask(selection: readonly string[], taskId: string): readonly string[] {
  return selection.includes(taskId)
    ? selection.filter((id) => id !== taskId)
    : [...selection, taskId];
}

/** Why the selection cannot start a batch, in words; null when it can. */
export function selectionProblem(
  selection: readonly string[],
  tasks: readonly PickableTask[],
): string | null {
  if (selection.length === 0) {
    return `Pick ${minMembers} to ${maxMembers} approved tasks of one repository.`;
  }
  if (selection.length < minMembers) {
    return `Pick at least ${minMembers - selection.length} more: a batch has ${minMembers} to ${maxMembers} tasks.`;
  }
  if (selection.length > maxMembers) {
    return `A batch has at most ${maxMembers} tasks; ${selection.length} are picked.`;
  }
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const urls = new Set(
    selection.map((id) => {
      const source = byId.get(id)?.source;
      return source?.kind === 'git' ? source.url : null;
    }),
  );
  if (urls.has(null)) return 'A picked task is no longer in the list of approved tasks.';
  if (urls.size > 1) {
    return `The picked tasks come from ${urls.size} repositories; a batch takes tasks of one.`;
  }
  return null;
}
