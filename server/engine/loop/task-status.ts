/** A task's lifecycle. The strings are part of the REST and UI contract. */
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

export function isTaskStatus(value: string): value is TaskStatus {
  return (taskStatuses as readonly string[]).includes(value);
}
