import { z } from 'zod';
import type { TaskEvent } from '../../engine/loop';
import { taskStatuses } from '../../engine/loop';

/** Output schemas: what the UI receives, mirroring the views of server/tasks/task-api.ts. */

/** The views' arrays are readonly; so are these. */
const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();

export const taskStatusSchema = z.enum(taskStatuses);

const sourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('git'), url: z.string(), ref: z.string().nullable() }),
  z.object({ kind: z.literal('archive'), name: z.string() }),
]);

const testIds = list(z.string());

/** A run against its reference, test by test (the engine's TestDelta). */
const testDeltaSchema = z.object({
  fixed: testIds,
  broken: testIds,
  stillFailing: testIds,
  missing: testIds,
  added: testIds,
  byId: z.boolean(),
  counts: z.object({
    fixed: z.number(),
    broken: z.number(),
    stillFailing: z.number(),
    missing: z.number(),
    added: z.number(),
  }),
});

const hypothesisViewSchema = z.object({
  name: z.string(),
  origin: z.string(),
  rank: z.number().nullable(),
  verdict: z.string(),
  passed: z.number(),
  failed: z.number(),
  skipped: z.number(),
  exitCode: z.number().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number().nullable(),
  changedLines: z.number().nullable(),
  mode: z.string().nullable(),
  outputTail: z.string(),
  error: z.string().nullable(),
  buildFailed: z.boolean(),
  tests: testDeltaSchema.nullable(),
  disqualified: z.string().nullable(),
});

const iterationViewSchema = z.object({
  index: z.number(),
  status: z.string(),
  winner: z.string().nullable(),
  checkpointSha: z.string().nullable(),
  hypotheses: list(hypothesisViewSchema),
});

const baselineViewSchema = z.object({
  passed: z.number(),
  failed: z.number(),
  skipped: z.number(),
  exitCode: z.number().nullable(),
  durationMs: z.number(),
  parsed: z.boolean(),
  outputTail: z.string(),
  buildFailed: z.boolean(),
  failingTests: testIds,
  green: z.boolean(),
});

const egressSchema = z.object({
  host: z.string(),
  port: z.number(),
  allowed: z.boolean(),
  reason: z.string().optional(),
  count: z.number(),
});

const setupRecordSchema = z.object({
  commands: list(list(z.string())),
  detected: z.boolean(),
  reasons: list(z.string()),
  cached: z.boolean(),
  durationMs: z.number(),
  egress: list(egressSchema),
  env: z.record(z.string(), z.string()).readonly(),
});

const gateViewSchema = z.object({
  argv: list(z.string()),
  lastRun: z
    .object({
      green: z.boolean(),
      exitCode: z.number().nullable(),
      commitSha: z.string().nullable(),
      at: z.string(),
      current: z.boolean(),
    })
    .nullable(),
});

const planStepViewSchema = z.object({
  index: z.number(),
  title: z.string(),
  scope: z.string(),
  status: z.enum(['open', 'done']),
  doneAt: z.string().nullable(),
  gates: list(gateViewSchema),
});

const reviewCommentSchema = z.object({
  reviewer: z.string(),
  verdict: z.string(),
  comment: z.string(),
  diffSha256: z.string(),
});

export const taskViewSchema = z.object({
  id: z.string(),
  status: taskStatusSchema,
  source: sourceSchema,
  testCommand: list(z.string()),
  maxIterations: z.number(),
  hypothesesPerIteration: z.number(),
  baseline: baselineViewSchema.nullable(),
  iterations: list(iterationViewSchema),
  pendingHypotheses: list(z.string()),
  diffSha256: z.string().nullable(),
  approvedDiffSha256: z.string().nullable(),
  error: z.string().nullable(),
  lastEventId: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  fixer: z.string(),
  allowTestEdits: z.boolean(),
  limits: z.object({
    maxMemoryMb: z.number().nullable(),
    maxPids: z.number().nullable(),
    maxDiskMb: z.number().nullable(),
  }),
  spend: z.object({
    tokens: z.number(),
    costMicroUsd: z.number(),
    maxTokens: z.number().nullable(),
  }),
  plan: list(planStepViewSchema),
  reviewComments: list(reviewCommentSchema),
  setupCommands: list(list(z.string())).nullable(),
  buildCommand: list(z.string()).nullable(),
  knownFailures: testIds,
  setup: setupRecordSchema.nullable(),
  reviewPartial: z.boolean(),
  stillFailing: testIds,
});

export const taskSummarySchema = z.object({
  id: z.string(),
  status: taskStatusSchema,
  source: sourceSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  lastEventId: z.number(),
});

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
      kind: z.enum(['test-file', 'test-config', 'test-in-source']),
      what: z.string(),
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
