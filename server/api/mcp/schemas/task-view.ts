import { z } from 'zod';
import { taskStatuses } from '../../../engine/loop';
import { planStepSchema } from './milestone';
import { testDeltaSchema } from './test-delta';

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
  buildFailed: z.boolean().describe('the code did not build: no test ran'),
  tests: testDeltaSchema
    .nullable()
    .describe('what it fixed, broke, left failing and lost against the checkpoint it built on'),
  disqualified: z.string().nullable().describe('why it cannot win, in words; null for a pass'),
});

const argv = z.array(z.string());

const setupSchema = z
  .looseObject({
    commands: z.array(argv),
    detected: z.boolean().describe('the commands were detected from the tree'),
    reasons: z
      .array(z.string())
      .describe('why each detected command: "package-lock.json → npm ci"'),
    cached: z.boolean().describe("restored from an earlier task's identical setup"),
    durationMs: z.number(),
    egress: z
      .array(
        z.looseObject({
          host: z.string(),
          port: z.int(),
          allowed: z.boolean(),
          reason: z.string().optional().describe('why it was refused'),
          count: z.int(),
        }),
      )
      .describe('every host the setup asked the egress proxy for, allowed or refused'),
    env: z.record(z.string(), z.string()).describe('variables every later run gets'),
  })
  .describe('what the setup did; null until it ran');

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
      buildFailed: z.boolean(),
      failingTests: z.array(z.string()).describe('ids of the tests failing at the baseline'),
      green: z.boolean().describe('the tests already pass at the baseline (but known failures)'),
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
  setupCommands: z
    .array(argv)
    .nullable()
    .describe("the task's setup commands; null: detected from the tree"),
  buildCommand: argv.nullable().describe('runs before the test command in every run'),
  knownFailures: z.array(z.string()).describe('test ids that may keep failing'),
  setup: setupSchema.nullable(),
  reviewPartial: z
    .boolean()
    .describe('the fix under review leaves baseline failures failing (see stillFailing)'),
  stillFailing: z
    .array(z.string())
    .describe('tests still failing in the fix under review, all failing since the baseline'),
});
