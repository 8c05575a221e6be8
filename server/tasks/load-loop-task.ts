import { pickRunLimits } from '../engine/sandbox';
import type { TestDelta } from '../engine/shadow';
import type { Db } from '../db/client';
import { reviewRequestOf } from '../reviews';
import { AppError } from '../errors/app-error';
import type { LoopTask, SetupRecord, RunSummary } from '../engine/loop';
import { runSummaryOf, sourceOf, statusOf } from './task-rows';

/** The task as the loop steps it: its row, its open plan steps and the runs it compares with. */
export async function loadLoopTask(db: Db, taskId: string): Promise<LoopTask> {
  const task = await db.task.findUnique({
    where: { id: taskId },
    include: {
      iterations: { orderBy: { index: 'desc' }, take: 1 },
      planSteps: { where: { status: 'open' }, orderBy: { index: 'asc' } },
    },
  });
  if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
  const iteration = task.iterations[0];
  const setup = (task.setup as SetupRecord | null) ?? null;
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
    hypothesisWaitMs: task.hypothesisWaitMs,
    maxWallClockMs: task.maxWallClockMs,
    startedAt: task.startedAt,
    sourceId: task.sourceId,
    ownerId: task.ownerId,
    teamId: task.teamId,
    baselineCommit: task.baselineCommit,
    checkpointSha: task.checkpointSha,
    iterationCount: task.iterationCount,
    cancelRequestedBy: task.cancelRequestedBy,
    reviewNowRequestedBy: task.reviewNowRequestedBy,
    fixer: task.fixer,
    allowTestEdits: task.allowTestEdits,
    maxTokens: task.maxTokens,
    tokensUsed: task.tokensUsed,
    limits: pickRunLimits(task),
    setupCommands: (task.setupCommands as string[][] | null) ?? null,
    // The task's own build command, else the one its setup detected (it builds, so every run
    // rebuilds before its tests: never the baseline's binaries).
    buildCommand: (task.buildCommand as string[] | null) ?? setup?.build?.argv ?? null,
    knownFailures: (task.knownFailures as string[] | null) ?? [],
    setup,
    openSteps: task.planSteps.map((step) => ({
      index: step.index,
      gates: step.gates as string[][],
    })),
    diffSha256: task.diffSha256,
    currentIteration:
      iteration === undefined
        ? null
        : {
            index: iteration.index,
            startedAt: iteration.createdAt,
            taken: iteration.status === 'running',
            reviewRound: iteration.reviewRound,
          },
    review: await reviewRequestOf(db, task, iteration?.reviewRound ?? 0),
    lastRun: await lastRun(db, taskId),
    baselineRun: await baselineRun(db, taskId),
    referenceRun: await referenceRun(db, taskId),
    recentlyBroken: await recentlyBroken(db, taskId),
  };
}

/** The run of the newest checkpoint: the newest winner's, else the baseline's (with cases). */
async function referenceRun(db: Db, taskId: string): Promise<RunSummary | null> {
  const run = await db.run.findFirst({
    where: {
      taskId,
      OR: [{ kind: 'baseline' }, { kind: 'hypothesis', hypothesis: { verdict: 'winner' } }],
    },
    orderBy: { createdAt: 'desc' },
  });
  return run === null ? null : runSummaryOf(run);
}

/** Tests that the newest finished iteration's hypotheses broke. */
async function recentlyBroken(db: Db, taskId: string): Promise<string[]> {
  const iteration = await db.iteration.findFirst({
    where: { taskId, status: 'done' },
    orderBy: { index: 'desc' },
    select: { runs: { select: { tests: true } } },
  });
  const broken = new Set<string>();
  for (const run of iteration?.runs ?? []) {
    for (const id of (run.tests as TestDelta | null)?.broken ?? []) broken.add(id);
  }
  return [...broken];
}

/** The newest best run: the top-ranked hypothesis of the newest finished iteration, or the baseline. */
async function lastRun(db: Db, taskId: string): Promise<RunSummary | null> {
  const run = await db.run.findFirst({
    where: {
      taskId,
      OR: [{ kind: 'baseline' }, { kind: 'hypothesis', hypothesis: { rank: 1 } }],
    },
    orderBy: { createdAt: 'desc' },
  });
  return run === null ? null : runSummaryOf(run);
}

async function baselineRun(db: Db, taskId: string): Promise<RunSummary | null> {
  const run = await db.run.findFirst({
    where: { taskId, kind: 'baseline' },
    orderBy: { createdAt: 'desc' },
  });
  return run === null ? null : runSummaryOf(run);
}
