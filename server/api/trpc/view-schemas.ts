import { z } from 'zod';
import type { TaskEvent } from '../../engine/loop';
import { taskSummarySchema } from '../../tasks/task-view-schema';

/**
 * Output schemas: what the UI receives. The task and diff views are the services' own schemas
 * (one definition for every transport); the rest mirror the other views of server/tasks/task-api.ts.
 */
export { taskSummarySchema, taskViewSchema } from '../../tasks/task-view-schema';
export { diffViewSchema } from '../../tasks/diff-view-schema';

/** The views' arrays are readonly; so are these. */
const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();

export const workspaceFileSchema = z.object({
  path: z.string(),
  size: z.number(),
  executable: z.boolean(),
});

function isEventLike(value: unknown): value is TaskEvent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string'
  );
}

/**
 * One event of a task's log as the timeline gets it: the stored payload with its `type` put back,
 * so the client narrows on `event.type`. The log is written by this server from `TaskEvent`s.
 */
export const timelineEventSchema = z.object({
  seq: z.number(),
  createdAt: z.string(),
  event: z.custom<TaskEvent>(isEventLike, 'an event must be an object with a type'),
});

export const taskListSchema = list(taskSummarySchema);
export const workspaceFilesSchema = list(workspaceFileSchema);

export const taskChangeSchema = z.object({ taskId: z.string(), seq: z.number() });
