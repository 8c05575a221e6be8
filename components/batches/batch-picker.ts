import type { TaskSummary } from '../trpc/router-types';

/** A batch's size, as the service takes it (server/batches/batch-api.ts, CreateBatchInput). */
export const minMembers = 2;
export const maxMembers = 8;

/**
 * The approved tasks a batch is picked from, as `tasks.list` reads them: the page's server
 * component and the form's query share it (a constant of a 'use client' module would reach the
 * server as a client reference, not a value).
 */
export const approvedTasksQuery = { status: ['approved'], limit: 200 } as const;

export type PickableTask = Pick<TaskSummary, 'id' | 'title' | 'source' | 'owner' | 'updatedAt'>;

export interface RepositoryGroup {
  /** The group's key: `git <url>`, or `archive <name>`. */
  readonly key: string;
  /** What the group is called: the Git URL, or the archive's name. */
  readonly label: string;
  readonly kind: 'git' | 'archive';
  readonly tasks: readonly PickableTask[];
}

/**
 * Where a task's change comes from, as a batch groups tasks: its Git URL, or its archive's name
 * (the service checks that uploads of one name hold the same contents, i.e. share a baseline).
 */
export function repositoryOf(task: Pick<PickableTask, 'source'>): {
  readonly key: string;
  readonly label: string;
  readonly kind: 'git' | 'archive';
} {
  return task.source.kind === 'git'
    ? { key: `git ${task.source.url}`, label: task.source.url, kind: 'git' }
    : { key: `archive ${task.source.name}`, label: task.source.name, kind: 'archive' };
}

/** The approved tasks a batch can take, by repository (Git URLs first, each group sorted). */
export function groupByRepository(tasks: readonly PickableTask[]): readonly RepositoryGroup[] {
  const byKey = new Map<
    string,
    { group: ReturnType<typeof repositoryOf>; tasks: PickableTask[] }
  >();
  for (const task of tasks) {
    const group = repositoryOf(task);
    const entry = byKey.get(group.key);
    if (entry === undefined) byKey.set(group.key, { group, tasks: [task] });
    else entry.tasks.push(task);
  }
  return [...byKey.values()]
    .sort((a, b) => a.group.key.localeCompare(b.group.key))
    .map(({ group, tasks: members }) => ({ ...group, tasks: members }));
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
  const picked = selection.map((id) => byId.get(id));
  if (picked.includes(undefined))
    return 'A picked task is no longer in the list of approved tasks.';
  const repositories = new Set(
    picked.map((task) => (task === undefined ? '' : repositoryOf(task).key)),
  );
  if (repositories.size > 1) {
    return `The picked tasks come from ${repositories.size} repositories; a batch takes tasks of one.`;
  }
  return null;
}
