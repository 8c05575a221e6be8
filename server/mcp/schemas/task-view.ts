import { z } from 'zod';
import { taskStatuses } from '../../engine/loop/task-status';
import { planStepSchema } from './milestone';

const counts = { passed: z.int(), failed: z.int(), skipped: z.int() };

const hypothesisViewSchema = z.looseObject({
  name: z.string(),
  origin: z.string(),
  rank: z.int().nullable(),
  verdict: z.string(),
  ...counts,
  exitCode: z.int().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number().nullable(),
  changedLines: z.int().nullable(),
  mode: z.string().nullable(),
  outputTail: z.string(),
  error: z.string().nullable(),
});

/** TaskView (the REST `GET /api/v1/tasks/{id}` body), as `get_task`'s structured result. */
export const taskViewSchema = z.looseObject({
  id: z.string(),
  status: z.enum(taskStatuses),
  source: z.discriminatedUnion('kind', [
    z.looseObject({ kind: z.literal('git'), url: z.string(), ref: z.string().nullable() }),
    z.looseObject({ kind: z.literal('archive'), name: z.string() }),
  ]),
  testCommand: z.array(z.string()),
  maxIterations: z.int(),
  hypothesesPerIteration: z.int(),
  baseline: z
    .looseObject({
      ...counts,
      exitCode: z.int().nullable(),
      durationMs: z.number(),
      parsed: z.boolean(),
      outputTail: z.string(),
    })
    .nullable(),
  iterations: z.array(
    z.looseObject({
      index: z.int(),
      status: z.string(),
      winner: z.string().nullable(),
      checkpointSha: z.string().nullable(),
      hypotheses: z.array(hypothesisViewSchema).describe('best first once ranked'),
    }),
  ),
  pendingHypotheses: z.array(z.string()).describe('submitted, waiting for the next iteration'),
  diffSha256: z.string().nullable(),
  approvedDiffSha256: z.string().nullable(),
  error: z.string().nullable(),
  lastEventId: z.int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  fixer: z.string(),
  allowTestEdits: z.boolean(),
  limits: z.object({
    maxMemoryMb: z.int().nullable(),
    maxPids: z.int().nullable(),
    maxDiskMb: z.int().nullable(),
  }),
  spend: z.looseObject({
    tokens: z.int(),
    costMicroUsd: z.number(),
    maxTokens: z.int().nullable(),
  }),
  plan: z.array(planStepSchema),
  reviewComments: z.array(
    z.looseObject({
      reviewer: z.string(),
      verdict: z.string(),
      comment: z.string(),
      diffSha256: z.string(),
    }),
  ),
});
