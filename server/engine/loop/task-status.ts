/**
 * The task statuses and which of them are active or final: a leaf (no imports), so the events,
 * the lifecycle's transitions and the step can all name statuses without a circle. The lifecycle
 * (`task-lifecycle.ts`) re-exports them with its transitions. The strings are part of the REST and
 * UI contract, and `prisma/schema.prisma`'s comments on the status columns list them (a test
 * checks).
 */
export const taskStatuses = [
  'queued',
  'preparing',
  'setup',
  'baseline',
  'iterating',
  'awaiting_hypotheses',
  'awaiting_review',
  'approved',
  'rejected',
  'failed',
  'cancelled',
  'interrupted',
] as const;

export type TaskStatus = (typeof taskStatuses)[number];

export function isTaskStatus(value: string): value is TaskStatus {
  return (taskStatuses as readonly string[]).includes(value);
}

/** Work is in progress or waiting for input; cancel, failure and interruption apply. */
export const activeStatuses: ReadonlySet<TaskStatus> = new Set([
  'queued',
  'preparing',
  'setup',
  'baseline',
  'iterating',
  'awaiting_hypotheses',
]);

/** Nothing more happens to the task unless someone acts on it. */
export const finalStatuses: ReadonlySet<TaskStatus> = new Set([
  'rejected',
  'failed',
  'cancelled',
  'interrupted',
]);

/**
 * The task still takes work (hypotheses, runs, a verdict): neither final nor approved. An approval
 * is not final (a reviewer may reopen it), but until then the task takes nothing.
 */
export const workStatuses: ReadonlySet<TaskStatus> = new Set(
  taskStatuses.filter((status) => !finalStatuses.has(status) && status !== 'approved'),
);

export const acceptsWork = (status: TaskStatus): boolean => workStatuses.has(status);
