import { z } from 'zod';
import type { TaskEvent } from '../../engine/loop';
import { taskSummarySchema } from '../../tasks/task-view-schema';

/**
 * Output schemas: what the UI receives. The task views are the services' own schemas (one
 * definition for every transport); the rest mirror the other views of server/tasks/task-api.ts.
 */
export { taskSummarySchema, taskViewSchema } from '../../tasks/task-view-schema';

/** The views' arrays are readonly; so are these. */
const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();

const pathLine = z.object({ path: z.string(), line: z.number() });

export const diffFlagsSchema = z.object({
  files: z.number(),
  additions: z.number(),
  deletions: z.number(),
  bytes: z.number(),
  testFiles: list(z.string()),
  deletedTests: list(z.object({ path: z.string(), what: z.string() })),
  // Flags stored before this field existed have none.
  disabledTests: list(pathLine.extend({ what: z.string() })).default([]),
  modeChanges: list(z.object({ path: z.string(), from: z.string(), to: z.string() })),
  binaryFiles: list(z.string()),
  symlinks: list(z.string()),
  hiddenCharacters: list(pathLine.extend({ codePoints: list(z.string()) })),
  // Flags stored before this field existed have none.
  testEdits: list(
    z.object({
      path: z.string(),
      kind: z.enum(['test-file', 'test-config', 'test-in-source', 'test-framework']),
      what: z.string(),
      rule: z.string().optional(),
      line: z.number().optional(),
    }),
  ).default([]),
  large: z.boolean(),
});

export const diffViewSchema = z.object({
  diff: z.string(),
  sha256: z.string(),
  flags: diffFlagsSchema,
});

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
