import { pickRunLimits } from '../engine/sandbox';
import { isPass } from '../engine/shadow/rank';
import type { TestDelta } from '../engine/shadow/test-delta';
import type { TestCase } from '../engine/parsers';
import type { Db, Prisma } from '../db/client';
import { appendEventInTransaction, type StoredEvent } from '../db/event-store';
import { inTransaction, type Tx } from '../db/transaction';
import { AppError } from '../errors/app-error';
import type { CandidateHypothesis, FixerSpend } from '../engine/loop/fixer';
import {
  gatesFinished,
  type GateResult,
  type IterationRecord,
  type LoopSource,
  type LoopTask,
  type ReviewArtifact,
  type SetupRecord,
  type TaskChanges,
  type TaskLoopStore,
} from '../engine/loop/loop-ports';
import type { RunSummary, TaskEvent } from '../engine/loop/task-events';
import { reduceTask, type TaskState } from '../engine/loop/task-reducer';
import { isTaskStatus, type TaskStatus } from '../engine/loop/task-status';
import { hypothesisWithEdits, insertHypothesis, toCandidate } from './hypothesis-rows';
import type { TaskEventBus } from './task-event-bus';

const json = (value: unknown): Prisma.InputJsonValue => value as Prisma.InputJsonValue;

export function statusOf(value: string): TaskStatus {
  if (!isTaskStatus(value)) throw new AppError('INTERNAL', `unknown task status '${value}'`);
  return value;
}

/**
 * The task loop's persistence on Prisma. Every write commits its rows together with the event
 * that announces them (status changes through `reduceTask`), then notifies the bus: events are
 * persisted before they are published.
 */
export class PrismaTaskStore implements TaskLoopStore {
  constructor(
    private readonly db: Db,
    private readonly bus: TaskEventBus,
  ) {}

  /** Runs `work` and the events it returns in one transaction, then publishes them. */
  async transact<T>(
    taskId: string,
    work: (tx: Tx, emit: (event: TaskEvent, changes?: TaskChanges) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    let stored: StoredEvent[] = [];
    const result = await inTransaction(this.db, async (tx) => {
      stored = [];
      return work(tx, async (event, changes) => {
        stored.push(await applyEvent(tx, taskId, event, changes));
      });
    });
    for (const event of stored) this.bus.publish(taskId, event);
    return result;
  }

  emit(taskId: string, event: TaskEvent, changes?: TaskChanges): Promise<void> {
    return this.transact(taskId, (_tx, emit) => emit(event, changes));
  }

  async load(taskId: string): Promise<LoopTask> {
    const task = await this.db.task.findUnique({
      where: { id: taskId },
      include: {
        iterations: { orderBy: { index: 'desc' }, take: 1 },
        planSteps: { where: { status: 'open' }, orderBy: { index: 'asc' } },
      },
    });
    if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    const iteration = task.iterations[0];
    return {
      id: task.id,
      status: statusOf(task.status),
      source: sourceOf(task),
      testCommand: task.testCommand as string[],
      maxIterations: task.maxIterations,
      hypothesesPerIteration: task.hypothesesPerIteration,
      hypothesisWaitMs: task.hypothesisWaitMs,
      maxWallClockMs: task.maxWallClockMs,
      startedAt: task.startedAt,
      sourceId: task.sourceId,
      baselineCommit: task.baselineCommit,
      checkpointSha: task.checkpointSha,
      iterationCount: task.iterationCount,
      cancelRequestedBy: task.cancelRequestedBy,
      fixer: task.fixer,
      allowTestEdits: task.allowTestEdits,
      maxTokens: task.maxTokens,
      tokensUsed: task.tokensUsed,
      limits: pickRunLimits(task),
      setupCommands: (task.setupCommands as string[][] | null) ?? null,
      buildCommand: (task.buildCommand as string[] | null) ?? null,
      knownFailures: (task.knownFailures as string[] | null) ?? [],
      setup: (task.setup as SetupRecord | null) ?? null,
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
            },
      lastRun: await this.lastRun(taskId),
      baselineRun: await this.baselineRun(taskId),
      referenceRun: await this.referenceRun(taskId),
      recentlyBroken: await this.recentlyBroken(taskId),
    };
  }

  /** The run of the newest checkpoint: the newest winner's, else the baseline's (with cases). */
  private async referenceRun(taskId: string): Promise<RunSummary | null> {
    const run = await this.db.run.findFirst({
      where: {
        taskId,
        OR: [{ kind: 'baseline' }, { kind: 'hypothesis', hypothesis: { verdict: 'winner' } }],
      },
      orderBy: { createdAt: 'desc' },
    });
    return run === null ? null : runSummaryOf(run);
  }

  /** Tests that the newest finished iteration's hypotheses broke. */
  private async recentlyBroken(taskId: string): Promise<string[]> {
    const iteration = await this.db.iteration.findFirst({
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
  private async lastRun(taskId: string): Promise<RunSummary | null> {
    const run = await this.db.run.findFirst({
      where: {
        taskId,
        OR: [{ kind: 'baseline' }, { kind: 'hypothesis', hypothesis: { rank: 1 } }],
      },
      orderBy: { createdAt: 'desc' },
    });
    return run === null ? null : runSummaryOf(run);
  }

  private async baselineRun(taskId: string): Promise<RunSummary | null> {
    const run = await this.db.run.findFirst({
      where: { taskId, kind: 'baseline' },
      orderBy: { createdAt: 'desc' },
    });
    return run === null ? null : runSummaryOf(run);
  }

  async recordReviewerComment(
    taskId: string,
    comment: { reviewer: string; verdict: string; comment: string; diffSha256: string },
  ): Promise<void> {
    await this.transact(taskId, async (tx, emit) => {
      await tx.review.create({
        data: {
          taskId,
          verdict: comment.verdict,
          diffSha256: comment.diffSha256,
          reviewer: comment.reviewer,
          comment: comment.comment,
        },
      });
      await emit({ type: 'review.commented', ...comment });
    });
  }

  async recordBaseline(
    taskId: string,
    command: readonly string[],
    mode: string,
    run: RunSummary,
  ): Promise<void> {
    await this.transact(taskId, async (tx, emit) => {
      await tx.run.create({
        data: {
          taskId,
          kind: 'baseline',
          commitSha: (
            await tx.task.findUnique({ where: { id: taskId }, select: { checkpointSha: true } })
          )?.checkpointSha,
          ...runColumns(command, mode, run),
          cases: json(run.cases),
        },
      });
      await emit({ type: 'baseline.finished', run: { ...run, cases: [] } });
    });
  }

  async beginIteration(taskId: string, index: number): Promise<void> {
    await this.transact(taskId, async (tx, emit) => {
      await tx.iteration.create({ data: { taskId, index, status: 'waiting' } });
      await emit({ type: 'iteration.started', index });
    });
  }

  async pendingHypotheses(taskId: string): Promise<readonly CandidateHypothesis[]> {
    const rows = await this.db.hypothesis.findMany({
      where: { taskId, iterationId: null },
      orderBy: { createdAt: 'asc' },
      select: hypothesisWithEdits,
    });
    return rows.map(toCandidate);
  }

  async takeHypotheses(
    taskId: string,
    index: number,
    hypotheses: readonly CandidateHypothesis[],
  ): Promise<void> {
    await this.transact(taskId, async (tx, emit) => {
      const iteration = await tx.iteration.update({
        where: { taskId_index: { taskId, index } },
        data: { status: 'running' },
        select: { id: true },
      });
      for (const candidate of hypotheses) {
        if (candidate.inboxId === undefined) {
          await insertHypothesis(tx, taskId, iteration.id, candidate);
        } else {
          const moved = await tx.hypothesis.updateMany({
            where: { id: candidate.inboxId, taskId, iterationId: null },
            data: { iterationId: iteration.id },
          });
          if (moved.count !== 1) {
            throw new AppError(
              'CONFLICT',
              `hypothesis '${candidate.hypothesis.name}' was taken twice`,
            );
          }
        }
      }
      await emit({
        type: 'iteration.running',
        index,
        hypotheses: hypotheses.map((c) => ({ name: c.hypothesis.name, origin: c.origin })),
      });
    });
  }

  async takenHypotheses(taskId: string, index: number): Promise<readonly CandidateHypothesis[]> {
    const rows = await this.db.hypothesis.findMany({
      where: { taskId, iteration: { index } },
      orderBy: { createdAt: 'asc' },
      select: hypothesisWithEdits,
    });
    return rows.map(toCandidate);
  }

  async recordIteration(taskId: string, record: IterationRecord): Promise<void> {
    const { index, report } = record;
    await this.transact(taskId, async (tx, emit) => {
      const iteration = await tx.iteration.update({
        where: { taskId_index: { taskId, index } },
        data: { status: 'done', winner: report.winner, checkpointSha: record.checkpointSha },
        select: { id: true },
      });
      for (const result of report.hypotheses) {
        const hypothesis = await tx.hypothesis.update({
          where: { iterationId_name: { iterationId: iteration.id, name: result.name } },
          data: {
            rank: result.rank,
            verdict:
              result.name === report.winner
                ? 'winner'
                : result.error !== null
                  ? 'error'
                  : result.disqualified === null
                    ? 'passed'
                    : 'failed',
            changedLines: result.changedLines,
            error: result.error,
          },
          select: { id: true },
        });
        await tx.run.create({
          data: {
            taskId,
            iterationId: iteration.id,
            hypothesisId: hypothesis.id,
            kind: 'hypothesis',
            ...runColumns(record.command, report.mode, result),
            // The winner's tests are the next iteration's reference; the others' are not needed.
            ...(result.name === report.winner ? { cases: json(result.cases) } : {}),
          },
        });
      }
      let rank = report.hypotheses.length;
      for (const failed of record.rejected) {
        rank += 1;
        await tx.hypothesis.create({
          data: {
            taskId,
            iterationId: iteration.id,
            name: failed.name,
            origin: failed.origin,
            rank,
            verdict: 'error',
            error: failed.reason,
          },
        });
      }
      await emit(
        {
          type: 'iteration.finished',
          index,
          winner: report.winner,
          checkpointSha: record.checkpointSha,
          green: record.green,
          ranked: report.hypotheses.map((h) => ({ ...h, cases: [] })),
          rejected: record.rejected.map(({ name, reason }) => ({ name, reason })),
        },
        record.checkpointSha === null ? {} : { checkpointSha: record.checkpointSha },
      );
    });
  }

  async recordGateRuns(
    taskId: string,
    commitSha: string,
    mode: string,
    results: readonly GateResult[],
  ): Promise<void> {
    await this.transact(taskId, async (tx, emit) => {
      const steps = await tx.planStep.findMany({
        where: { taskId, index: { in: results.map((r) => r.step) } },
        select: { id: true, index: true },
      });
      for (const result of results) {
        const step = steps.find((s) => s.index === result.step);
        if (step === undefined) continue;
        await tx.run.create({
          data: {
            taskId,
            kind: 'gate',
            commitSha,
            planStepId: step.id,
            gateIndex: result.gate,
            ...runColumns(result.argv, mode, result.run),
          },
        });
      }
      await emit(gatesFinished(commitSha, results));
    });
  }

  async recordSpend(taskId: string, spend: FixerSpend): Promise<void> {
    await this.transact(taskId, async (tx, emit) => {
      const totals = await tx.task.update({
        where: { id: taskId },
        data: {
          tokensUsed: { increment: spend.tokens },
          costMicroUsd: { increment: spend.costMicroUsd },
        },
        select: { tokensUsed: true, costMicroUsd: true },
      });
      await emit({
        type: 'fixer.spent',
        tokens: spend.tokens,
        costMicroUsd: spend.costMicroUsd,
        totalTokens: totals.tokensUsed,
        totalCostMicroUsd: totals.costMicroUsd,
      });
    });
  }

  async recordReview(
    taskId: string,
    artifact: ReviewArtifact,
    evidence: { readonly partial: boolean; readonly stillFailing: readonly string[] },
  ): Promise<void> {
    await this.transact(taskId, async (tx, emit) => {
      await tx.diff.upsert({
        where: { sha256: artifact.sha256 },
        create: {
          sha256: artifact.sha256,
          bytes: new Uint8Array(artifact.bytes),
          flags: json(artifact.flags),
          size: artifact.bytes.length,
        },
        update: {},
      });
      await emit(
        {
          type: 'review.ready',
          diffSha256: artifact.sha256,
          flags: artifact.flags,
          size: artifact.bytes.length,
          partial: evidence.partial,
          stillFailing: evidence.stillFailing,
        },
        { reviewPartial: evidence.partial, stillFailing: evidence.stillFailing },
      );
    });
  }
}

/**
 * Applies one event inside a transaction: the reducer decides the new state (refusing an illegal
 * transition), the task row takes it and `changes`, and the event is appended with the next seq.
 */
export async function applyEvent(
  tx: Tx,
  taskId: string,
  event: TaskEvent,
  changes: TaskChanges = {},
): Promise<StoredEvent> {
  const row = await tx.task.findUnique({
    where: { id: taskId },
    select: { status: true, iterationCount: true, diffSha256: true, approvedDiffSha256: true },
  });
  if (row === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
  const before: TaskState = { ...row, status: statusOf(row.status) };
  const after = reduceTask(before, event);
  const { setup, stillFailing, ...columns } = changes;
  if (after !== before || Object.keys(changes).length > 0) {
    await tx.task.update({
      where: { id: taskId },
      data: {
        status: after.status,
        iterationCount: after.iterationCount,
        diffSha256: after.diffSha256,
        approvedDiffSha256: after.approvedDiffSha256,
        approvalState:
          after.status === 'approved'
            ? 'approved'
            : after.status === 'rejected'
              ? 'rejected'
              : 'none',
        ...columns,
        ...(setup === undefined ? {} : { setup: json(setup) }),
        ...(stillFailing === undefined ? {} : { stillFailing: json(stillFailing) }),
      },
    });
  }
  const { type, ...payload } = event;
  return appendEventInTransaction(tx, taskId, type, json(payload));
}

function sourceOf(task: {
  sourceKind: string;
  sourceUrl: string | null;
  sourceRef: string | null;
  archiveName: string | null;
}): LoopSource {
  return task.sourceKind === 'git'
    ? { kind: 'git', url: task.sourceUrl ?? '', ref: task.sourceRef }
    : { kind: 'archive', name: task.archiveName ?? 'archive' };
}

function runColumns(command: readonly string[], mode: string, run: Omit<RunSummary, 'green'>) {
  return {
    argv: json(command),
    mode,
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: Math.round(run.durationMs),
    passed: run.passed,
    failed: run.failed,
    skipped: run.skipped,
    parsed: run.parsed,
    buildFailed: run.buildFailed,
    ...(run.tests === null ? {} : { tests: json(run.tests) }),
    disqualified: run.disqualified,
    outputTail: run.outputTail,
    error: run.error,
  };
}

export function runSummaryOf(run: {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  passed: number;
  failed: number;
  skipped: number;
  parsed: boolean;
  buildFailed: boolean;
  cases: unknown;
  tests: unknown;
  disqualified: string | null;
  outputTail: string;
  error: string | null;
}): RunSummary {
  const tests = (run.tests as TestDelta | null) ?? null;
  const summary = {
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    passed: run.passed,
    failed: run.failed,
    skipped: run.skipped,
    parsed: run.parsed,
    buildFailed: run.buildFailed,
    cases: (run.cases as TestCase[] | null) ?? [],
    tests,
    disqualified: run.disqualified,
    outputTail: run.outputTail,
    error: run.error,
  };
  const green =
    tests === null
      ? isPass({ ...summary, index: 0, changedLines: 0 })
      : run.disqualified === null && run.error === null;
  return { ...summary, green };
}
