import { taskRights, type TaskOwnership } from '../auth/permissions';
import type { Db, Prisma } from '../db/client';
import { AppError } from '../errors/app-error';
import { activeStatuses, type TaskStatus } from '../engine/lifecycle';
import { type SetupRecord, failingIds, remainingFailures } from '../engine/loop';
import type { TestCase } from '../engine/parsers';
import type { DiffFlags } from '../engine/review';
import type { TestDelta } from '../engine/shadow';
import { workerIdFor } from '../auth/worker-alias';
import { isPersonVerdict, reviewSummaryOf } from '../reviews';
import { knownFailureOffer } from './known-failure-offer';
import { loadPlan } from './plan-views';
import type {
  Actor,
  BaselineView,
  HypothesisView,
  IterationView,
  TaskSummary,
  TaskView,
} from './task-api';
import { iterationStatusOf, sourceOf, statusOf } from './task-rows';

/*
 * The views of task-api.ts, whose shape task-view-schema.ts defines (for REST, tRPC and MCP alike),
 * read from the task's rows.
 */

const byRank = (a: HypothesisView, b: HypothesisView): number =>
  (a.rank ?? Number.MAX_SAFE_INTEGER) - (b.rank ?? Number.MAX_SAFE_INTEGER);

// Json columns, written by the task store from these types.
const testIds = (value: unknown): readonly string[] => (value as string[] | null) ?? [];
const testCases = (value: unknown): readonly TestCase[] => (value as TestCase[] | null) ?? [];

type BaselineColumns = {
  passed: number;
  failed: number;
  skipped: number;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  parsed: boolean;
  buildFailed: boolean;
  cases: unknown;
  outputTail: string;
  error: string | null;
  readAs: string | null;
};

/**
 * Green at the baseline: the tests ran to a readable end and every failure is a known one (a run
 * with no failure must also have exited 0).
 */
function alreadyGreen(
  run: BaselineColumns,
  cases: readonly TestCase[],
  known: readonly string[],
): boolean {
  if (run.error !== null || run.timedOut || run.buildFailed || !run.parsed) return false;
  if (run.passed + run.failed === 0) return false;
  if (remainingFailures({ cases, failed: run.failed }, known).count > 0) return false;
  return run.failed > 0 || run.exitCode === 0;
}

function baselineView(run: BaselineColumns, knownFailures: readonly string[]): BaselineView {
  const cases = testCases(run.cases);
  return {
    passed: run.passed,
    failed: run.failed,
    skipped: run.skipped,
    exitCode: run.exitCode,
    durationMs: run.durationMs,
    parsed: run.parsed,
    outputTail: run.outputTail,
    buildFailed: run.buildFailed,
    readAs: run.readAs,
    failingTests: failingIds({ cases }),
    green: alreadyGreen(run, cases, knownFailures),
  };
}

/** Reads one task as the API shows it (`GET /api/v1/tasks/{id}`). */
export async function loadTaskView(
  db: Db,
  taskId: string,
  actor: Actor,
  options: { readonly maxReviewRounds?: number | undefined } = {},
): Promise<TaskView> {
  const task = await db.task.findUnique({
    where: { id: taskId },
    include: {
      iterations: {
        orderBy: { index: 'asc' },
        include: {
          hypotheses: {
            orderBy: { createdAt: 'asc' },
            include: { runs: { orderBy: { createdAt: 'desc' }, take: 1 } },
          },
        },
      },
      hypotheses: {
        where: { iterationId: null },
        orderBy: { createdAt: 'asc' },
        select: { name: true },
      },
      runs: { where: { kind: 'baseline' }, orderBy: { createdAt: 'desc' }, take: 1 },
      reviews: { orderBy: { createdAt: 'asc' } },
      owner: { select: { username: true } },
      team: { select: { name: true } },
    },
  });
  if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
  const baseline = task.runs[0];
  const knownFailures = testIds(task.knownFailures);
  const offer = await knownFailureOffer(db, taskId, knownFailures);
  const iterations: IterationView[] = task.iterations.map((iteration) => ({
    index: iteration.index,
    status: iterationStatusOf(iteration.status),
    winner: iteration.winner,
    checkpointSha: iteration.checkpointSha,
    // Only on an iteration whose runner-up a reviewer promoted (absent otherwise).
    ...(typeof iteration.promotedBy === 'string' && typeof iteration.passedOver === 'string'
      ? {
          promotion: {
            by: iteration.promotedBy,
            reason: iteration.promotionReason ?? '',
            passedOver: iteration.passedOver,
          },
        }
      : {}),
    hypotheses: iteration.hypotheses
      .map((h): HypothesisView => {
        const run = h.runs[0];
        return {
          name: h.name,
          origin: h.origin,
          rank: h.rank,
          verdict: h.verdict,
          passed: run?.passed ?? 0,
          failed: run?.failed ?? 0,
          skipped: run?.skipped ?? 0,
          exitCode: run?.exitCode ?? null,
          timedOut: run?.timedOut ?? false,
          durationMs: run?.durationMs ?? null,
          changedLines: h.changedLines,
          mode: run?.mode ?? null,
          outputTail: run?.outputTail ?? '',
          error: h.error ?? run?.error ?? null,
          buildFailed: run?.buildFailed ?? false,
          tests: (run?.tests as TestDelta | null | undefined) ?? null,
          readAs: run?.readAs ?? null,
          disqualified: run?.disqualified ?? null,
          sameTreeAs: h.sameTreeAs,
        };
      })
      .sort(byRank),
  }));
  return {
    id: task.id,
    status: statusOf(task.status),
    source: sourceOf(task),
    title: task.title,
    problem: task.problem,
    issueUrl: task.issueUrl,
    testCommand: task.testCommand as string[],
    maxIterations: task.maxIterations,
    hypothesesPerIteration: task.hypothesesPerIteration,
    hypothesisWaitSecs: Math.round(task.hypothesisWaitMs / 1000),
    reviewNowRequestedBy: task.reviewNowRequestedBy,
    knownFailureOffer: offer,
    baseline: baseline === undefined ? null : baselineView(baseline, knownFailures),
    iterations,
    pendingHypotheses: task.hypotheses.map((h) => h.name),
    diffSha256: task.diffSha256,
    approvedDiffSha256: task.approvedDiffSha256,
    error: task.error,
    lastEventId: task.lastEventId,
    workerId: workerIdFor(actor, task.workerId),
    createdAt: task.createdAt.toISOString(),
    updatedAt: task.updatedAt.toISOString(),
    fixer: task.fixer,
    allowTestEdits: task.allowTestEdits,
    limits: {
      maxMemoryMb: task.maxMemoryMb,
      maxPids: task.maxPids,
      maxDiskMb: task.maxDiskMb,
      maxInodes: task.maxInodes,
    },
    spend: { tokens: task.tokensUsed, costMicroUsd: task.costMicroUsd, maxTokens: task.maxTokens },
    plan: await loadPlan(db, taskId),
    reviewComments: task.reviews
      .filter((r) => !isPersonVerdict(r.verdict))
      .map((r) => ({
        reviewer: r.reviewer,
        verdict: r.verdict,
        comment: r.comment ?? '',
        diffSha256: r.diffSha256,
      })),
    setupCommands: (task.setupCommands as string[][] | null) ?? null,
    buildCommand: (task.buildCommand as string[] | null) ?? null,
    knownFailures,
    setup: (task.setup as SetupRecord | null) ?? null,
    reviewPartial: task.reviewPartial,
    stillFailing: testIds(task.stillFailing),
    owner: task.owner?.username ?? null,
    team: task.team?.name ?? null,
    decision: decisionOf(task.reviews),
    review: await reviewSummaryOf(db, task, options.maxReviewRounds),
    can: allowedActions(actor, task, statusOf(task.status), offer.length > 0),
  };
}

function decisionOf(
  reviews: readonly { verdict: string; reviewer: string; createdAt: Date; diffSha256: string }[],
): TaskView['decision'] {
  const last = reviews.findLast((r) => r.verdict === 'approve' || r.verdict === 'reject');
  if (last === undefined) return null;
  return {
    verdict: last.verdict === 'approve' ? 'approve' : 'reject',
    by: last.reviewer,
    at: last.createdAt.toISOString(),
    sha256: last.diffSha256,
  };
}

function allowedActions(
  actor: Actor,
  task: TaskOwnership & {
    cancelRequestedBy: string | null;
    reviewNowRequestedBy: string | null;
    checkpointSha: string | null;
    baselineCommit: string | null;
    reviewPartial: boolean;
    sourceKind: string;
  },
  status: TaskStatus,
  offered: boolean,
): TaskView['can'] {
  const rights = taskRights(actor, task);
  const active = activeStatuses.has(status) && task.cancelRequestedBy === null;
  // Under review a task still takes hypotheses (a new iteration) and can be rolled back.
  const open = active || status === 'awaiting_review';
  return {
    submit: rights.has('submit') && open,
    cancel: rights.has('cancel') && active,
    rollback: rights.has('cancel') && open,
    review: rights.has('review') && status === 'awaiting_review',
    comment: rights.has('comment') && status === 'awaiting_review',
    reopen: rights.has('reopen') && status === 'approved',
    // A Git URL's task only: its baseline is a commit of the team's repository.
    push: rights.has('review') && status === 'approved' && task.sourceKind === 'git',
    sendToReview:
      rights.has('steer') &&
      active &&
      status === 'awaiting_hypotheses' &&
      task.reviewNowRequestedBy === null &&
      task.checkpointSha !== null &&
      task.checkpointSha !== task.baselineCommit,
    acceptKnownFailures:
      rights.has('steer') &&
      offered &&
      ((active && status === 'awaiting_hypotheses') ||
        (status === 'awaiting_review' && task.reviewPartial)),
  };
}

export async function listTaskSummaries(
  db: Db,
  options: { limit: number; where: Prisma.TaskWhereInput; actor: Actor },
): Promise<TaskSummary[]> {
  const tasks = await db.task.findMany({
    where: options.where,
    orderBy: { createdAt: 'desc' },
    take: options.limit,
    include: { owner: { select: { username: true } } },
  });
  return tasks.map((task) => ({
    id: task.id,
    status: statusOf(task.status),
    title: task.title,
    source: sourceOf(task),
    createdAt: task.createdAt.toISOString(),
    updatedAt: task.updatedAt.toISOString(),
    lastEventId: task.lastEventId,
    owner: task.owner?.username ?? null,
    workerId: workerIdFor(options.actor, task.workerId),
  }));
}

export const flagsOf = (value: unknown): DiffFlags => value as DiffFlags;
