import { z } from 'zod';
import { iterationStatuses, taskStatuses } from '../engine/lifecycle';
import { reviewSummaryViewSchema } from '../reviews';

/**
 * The task views (`GET /api/v1/tasks/{id}` and its parts), defined once: task-api.ts's `TaskView`,
 * `HypothesisView`, … are `z.infer` of these; tRPC checks its outputs with them, MCP derives
 * `get_task`'s output schema from them (with open objects), REST serves the views they type. Field
 * names are part of the REST contract; the descriptions are what MCP clients read.
 */

/** The views' arrays are readonly; so are these. */
const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();

const ids = (what: string) => list(z.string()).describe(what);
const argv = list(z.string());

export const taskStatusSchema = z.enum(taskStatuses);

export const taskSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('git'), url: z.string(), ref: z.string().nullable() }),
  z.object({ kind: z.literal('archive'), name: z.string() }),
]);

/**
 * A run against its reference (the baseline, or the checkpoint it builds on), test by test: the
 * engine's TestDelta.
 */
export const testDeltaViewSchema = z
  .object({
    fixed: ids('failing at the reference, passing now'),
    broken: ids('passing at the reference (or new), failing now'),
    stillFailing: ids('failing at the reference and now'),
    missing: ids('ran at the reference, not now (deleted, deselected, newly skipped)'),
    added: ids('passing tests the reference did not have'),
    byId: z
      .boolean()
      .describe('false when a run named no tests: the lists are empty, counts come from totals'),
    basis: z
      .enum(['id', 'inferred', 'totals'])
      .optional()
      .describe(
        'id: both runs named every test; inferred: from the failing tests they named and equal totals (lists filled); totals: counts are net changes in failures, no test is named',
      ),
    counts: z.object({
      fixed: z.int(),
      broken: z.int(),
      stillFailing: z.int(),
      missing: z.int(),
      added: z.int(),
    }),
  })
  .describe('the run against its reference, by test id');

const counts = { passed: z.int(), failed: z.int(), skipped: z.int() };

/** How a run's results were read, in words; null for runs stored before it was recorded. */
const runReadAs = z
  .string()
  .nullable()
  .optional()
  .describe('how the results were read: "by test id, from a JUnit report added to the command"');

export const hypothesisViewSchema = z.object({
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
  readAs: runReadAs,
  /** Against the run's reference (the baseline or the checkpoint built on); null without one. */
  tests: testDeltaViewSchema
    .nullable()
    .describe('what it fixed, broke, left failing and lost against the checkpoint it built on'),
  /** Why the run cannot win, in words; null for a pass (or a run not judged yet). */
  disqualified: z.string().nullable().describe('why it cannot win, in words; null for a pass'),
  sameTreeAs: z
    .string()
    .nullable()
    .describe('another hypothesis of the iteration with the same tree: it ran once, for both'),
});

export const iterationViewSchema = z.object({
  index: z.int(),
  status: z.enum(iterationStatuses),
  winner: z.string().nullable(),
  checkpointSha: z.string().nullable(),
  hypotheses: list(hypothesisViewSchema).describe('best first once ranked'),
  /** A reviewer put `winner` up for review in place of the ranked winner `passedOver`. */
  promotion: z
    .object({ by: z.string(), reason: z.string(), passedOver: z.string() })
    .nullable()
    .optional()
    .describe(
      'a reviewer promoted `winner` (a passing runner-up) over the ranked winner `passedOver`, for `reason`; absent: the ranked winner stands',
    ),
});

export const baselineViewSchema = z.object({
  ...counts,
  exitCode: z.int().nullable(),
  durationMs: z.number(),
  parsed: z.boolean(),
  outputTail: z.string(),
  buildFailed: z.boolean(),
  readAs: runReadAs,
  /** The ids of the tests that failed, when the runner names its tests. */
  failingTests: ids('ids of the tests failing at the baseline'),
  /** The tests already pass at the baseline (but the task's known failures). */
  green: z.boolean().describe('the tests already pass at the baseline (but known failures)'),
});

/** What a task's setup did (the engine's SetupRecord). */
export const setupViewSchema = z
  .object({
    commands: list(argv),
    detected: z.boolean().describe('the commands were detected from the tree'),
    reasons: list(z.string()).describe('why each detected command: "package-lock.json → npm ci"'),
    cached: z.boolean().describe("restored from an earlier task's identical setup"),
    durationMs: z.number(),
    egress: list(
      z.object({
        host: z.string(),
        port: z.int(),
        allowed: z.boolean(),
        reason: z.string().optional().describe('why it was refused'),
        count: z.int(),
      }),
    ).describe('every host the setup asked the egress proxy for, allowed or refused'),
    env: z.record(z.string(), z.string()).readonly().describe('variables every later run gets'),
    build: z
      .object({ argv, reason: z.string() })
      .nullable()
      .optional()
      .describe(
        'the build step detected because setup builds: every run rebuilds with it before its tests (a task buildCommand replaces it)',
      ),
  })
  .describe('what the setup did; null until it ran');

export const gateViewSchema = z.object({
  argv,
  /** The newest run of this gate, if any. */
  lastRun: z
    .object({
      green: z.boolean(),
      exitCode: z.int().nullable(),
      commitSha: z.string().nullable(),
      at: z.string(),
      /** Whether it ran on the newest checkpoint (only then does it count). */
      current: z
        .boolean()
        .describe('whether it ran on the newest checkpoint (only then it counts)'),
    })
    .nullable(),
});

/** One step of a task's plan with its gates' newest runs. */
export const planStepViewSchema = z.object({
  index: z.int().describe('1-based'),
  title: z.string(),
  scope: z.string(),
  status: z.enum(['open', 'done']),
  doneAt: z.string().nullable(),
  gates: list(gateViewSchema),
});

export const taskViewSchema = z.object({
  id: z.string(),
  status: taskStatusSchema,
  source: taskSourceSchema,
  /** What the task is for: given, or made from the source. */
  title: z.string().describe('what the task is for, in a line'),
  /** The bug report or issue text (Markdown); "" when none was given. */
  problem: z.string().describe('the bug report or issue text (Markdown)'),
  /** The issue it answers (https), shown as a link and never fetched. */
  issueUrl: z.string().nullable(),
  testCommand: argv,
  maxIterations: z.int(),
  hypothesesPerIteration: z.int(),
  /** How long an iteration waits for hypotheses before the task goes on without them. */
  hypothesisWaitSecs: z
    .int()
    .describe('seconds an iteration waits for hypotheses; then a partial fix goes to review'),
  /** Who asked to send the newest checkpoint to review now; null: nobody (or it was done). */
  reviewNowRequestedBy: z.string().nullable(),
  /**
   * Tests that failed at the baseline and still fail at the newest checkpoint, not yet known
   * failures: the page offers to accept them (`acceptKnownFailures`).
   */
  knownFailureOffer: ids('failed at the baseline and still failing: may be accepted as known'),
  baseline: baselineViewSchema.nullable(),
  iterations: list(iterationViewSchema),
  /** Hypotheses submitted and waiting for the next iteration. */
  pendingHypotheses: ids('submitted, waiting for the next iteration'),
  diffSha256: z.string().nullable(),
  approvedDiffSha256: z.string().nullable(),
  error: z.string().nullable(),
  lastEventId: z.int(),
  /** The worker holding the task's worktree (PostgreSQL deployments); null with SQLite. */
  workerId: z
    .string()
    .nullable()
    .describe('the worker process that runs the task (an opaque alias unless you are an admin)'),
  createdAt: z.string(),
  updatedAt: z.string(),
  fixer: z.string(),
  allowTestEdits: z.boolean(),
  /** The task's own caps per run; null fields take the server's default. */
  limits: z.object({
    maxMemoryMb: z.int().nullable(),
    maxPids: z.int().nullable(),
    maxDiskMb: z.int().nullable(),
    maxInodes: z.int().nullable(),
  }),
  /** LLM spend so far (tokens and estimated cost), and the cap. */
  spend: z.object({
    tokens: z.int(),
    costMicroUsd: z.number(),
    maxTokens: z.int().nullable(),
  }),
  plan: list(planStepViewSchema),
  /** Comments of the reviewer model on the diff under review (never an approval). */
  reviewComments: list(
    z.object({
      reviewer: z.string(),
      verdict: z.string(),
      comment: z.string(),
      diffSha256: z.string(),
    }),
  ),
  /** The task's own setup commands; null: detected from the tree; []: no setup. */
  setupCommands: list(argv)
    .nullable()
    .describe("the task's setup commands; null: detected from the tree"),
  /** Runs before the test command in every run; null: none. */
  buildCommand: argv.nullable().describe('runs before the test command in every run'),
  /** Test ids that may keep failing: the task is green without them. */
  knownFailures: ids('test ids that may keep failing'),
  /** What the setup did, once it ran: commands, reasons, cache, duration, egress. */
  setup: setupViewSchema.nullable(),
  /** The fix under review leaves baseline failures failing (listed in `stillFailing`). */
  reviewPartial: z
    .boolean()
    .describe('the fix under review leaves baseline failures failing (see stillFailing)'),
  /** Tests still failing in the fix under review, all of them failing since the baseline. */
  stillFailing: ids('tests still failing in the fix under review, all failing since the baseline'),
  /** Who created the task (null: made before accounts) and the team it is shared with. */
  owner: z.string().nullable().describe('the username of who created the task'),
  team: z.string().nullable().describe('the team the task is shared with'),
  /** The newest approval or rejection: who, when, and the hash they reviewed. */
  decision: z
    .object({
      verdict: z.enum(['approve', 'reject']),
      by: z.string(),
      at: z.string(),
      sha256: z.string(),
    })
    .nullable(),
  /**
   * The review conversation: the round, the standing verdict, the newest summary and the threads
   * still open on the diff under review (what a review round's hypotheses must answer).
   */
  review: reviewSummaryViewSchema,
  /** What the caller may do to the task now (the page shows only those actions). */
  can: z.object({
    submit: z.boolean(),
    cancel: z.boolean(),
    rollback: z.boolean(),
    review: z.boolean(),
    comment: z.boolean(),
    reopen: z.boolean(),
    /** Push the approved change to a configured remote (a reviewer; a task from a Git URL). */
    push: z.boolean(),
    /** Send the newest checkpoint to review now (it waits for hypotheses, beyond the baseline). */
    sendToReview: z.boolean(),
    /** Accept tests of `knownFailureOffer` as known failures. */
    acceptKnownFailures: z.boolean(),
  }),
});

/** One task of the list (`GET /api/v1/tasks`). */
export const taskSummarySchema = z.object({
  id: z.string(),
  status: taskStatusSchema,
  title: z.string(),
  source: taskSourceSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  lastEventId: z.int(),
  owner: z.string().nullable(),
  workerId: z.string().nullable(),
});
