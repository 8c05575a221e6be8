import type { Db } from '../db/client';
import { AppError } from '../errors/app-error';
import type { DiffFlags } from '../engine/review/diff-flags';
import { loadPlan } from './plan-views';
import { statusOf } from './prisma-task-store';
import type { HypothesisView, IterationView, TaskSummary, TaskView } from './task-api';

type SourceColumns = {
  sourceKind: string;
  sourceUrl: string | null;
  sourceRef: string | null;
  archiveName: string | null;
};

export const sourceView = (task: SourceColumns): TaskView['source'] =>
  task.sourceKind === 'git'
    ? { kind: 'git', url: task.sourceUrl ?? '', ref: task.sourceRef }
    : { kind: 'archive', name: task.archiveName ?? 'archive' };

const byRank = (a: HypothesisView, b: HypothesisView): number =>
  (a.rank ?? Number.MAX_SAFE_INTEGER) - (b.rank ?? Number.MAX_SAFE_INTEGER);

/** Reads one task as the API shows it (`GET /api/v1/tasks/{id}`). */
export async function loadTaskView(db: Db, taskId: string): Promise<TaskView> {
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
      reviews: {
        where: { verdict: { notIn: ['approve', 'reject'] } },
        orderBy: { createdAt: 'asc' },
      },
    },
  });
  if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
  const baseline = task.runs[0];
  const iterations: IterationView[] = task.iterations.map((iteration) => ({
    index: iteration.index,
    status: iteration.status,
    winner: iteration.winner,
    checkpointSha: iteration.checkpointSha,
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
        };
      })
      .sort(byRank),
  }));
  return {
    id: task.id,
    status: statusOf(task.status),
    source: sourceView(task),
    testCommand: task.testCommand as string[],
    maxIterations: task.maxIterations,
    hypothesesPerIteration: task.hypothesesPerIteration,
    baseline:
      baseline === undefined
        ? null
        : {
            passed: baseline.passed,
            failed: baseline.failed,
            skipped: baseline.skipped,
            exitCode: baseline.exitCode,
            durationMs: baseline.durationMs,
            parsed: baseline.parsed,
            outputTail: baseline.outputTail,
          },
    iterations,
    pendingHypotheses: task.hypotheses.map((h) => h.name),
    diffSha256: task.diffSha256,
    approvedDiffSha256: task.approvedDiffSha256,
    error: task.error,
    lastEventId: task.lastEventId,
    createdAt: task.createdAt.toISOString(),
    updatedAt: task.updatedAt.toISOString(),
    fixer: task.fixer,
    allowTestEdits: task.allowTestEdits,
    limits: { maxMemoryMb: task.maxMemoryMb, maxPids: task.maxPids, maxDiskMb: task.maxDiskMb },
    spend: { tokens: task.tokensUsed, costMicroUsd: task.costMicroUsd, maxTokens: task.maxTokens },
    plan: await loadPlan(db, taskId),
    reviewComments: task.reviews.map((r) => ({
      reviewer: r.reviewer,
      verdict: r.verdict,
      comment: r.comment ?? '',
      diffSha256: r.diffSha256,
    })),
  };
}

export async function listTaskSummaries(db: Db, limit: number): Promise<TaskSummary[]> {
  const tasks = await db.task.findMany({ orderBy: { createdAt: 'desc' }, take: limit });
  return tasks.map((task) => ({
    id: task.id,
    status: statusOf(task.status),
    source: sourceView(task),
    createdAt: task.createdAt.toISOString(),
    updatedAt: task.updatedAt.toISOString(),
    lastEventId: task.lastEventId,
  }));
}

export const flagsOf = (value: unknown): DiffFlags => value as DiffFlags;
