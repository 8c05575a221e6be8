import type { Db } from '../db/client';
import { appendEventInTransaction, type StoredEvent } from '../db/event-store';
import { inTransaction, type Tx } from '../db/transaction';
import { AppError } from '../errors/app-error';
import {
  type CandidateHypothesis,
  type FixerSpend,
  gatesFinished,
  type GateResult,
  type IterationRecord,
  type LoopTask,
  type ReviewArtifact,
  type TaskChanges,
  type TaskLoopStore,
  type RunSummary,
  type TaskEvent,
  reduceTask,
  type TaskState,
  type ThreadReply,
} from '../engine/loop';
import { moveThreads, postFixerReplies } from '../reviews';
import { hypothesisWithEdits, insertHypothesis, toCandidate } from './hypothesis-rows';
import { loadLoopTask } from './load-loop-task';
import type { EventNotifier } from './cross-process-event-notifier';
import type { TaskEventBus } from './task-event-bus';
import { json, keptCasesColumn, runColumns, statusOf, storedCases } from './task-rows';

/**
 * The task loop's persistence on Prisma. Every write commits its rows together with the event
 * that announces them (status changes through `reduceTask`), then notifies the bus: events are
 * persisted before they are published.
 */
export class PrismaTaskStore implements TaskLoopStore {
  constructor(
    private readonly db: Db,
    private readonly bus: TaskEventBus,
    /** On PostgreSQL: tells the other processes (web, workers) in the same transaction. */
    private readonly notifier: EventNotifier | null = null,
  ) {}

  /** Runs `work` and the events it returns in one transaction, then publishes them. */
  async transact<T>(
    taskId: string,
    work: (tx: Tx, emit: (event: TaskEvent, changes?: TaskChanges) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    let stored: StoredEvent[] = [];
    const result = await inTransaction(this.db, async (tx) => {
      stored = [];
      const value = await work(tx, async (event, changes) => {
        stored.push(await applyEvent(tx, taskId, event, changes));
      });
      const [first, last] = [stored[0], stored.at(-1)];
      if (this.notifier !== null && first !== undefined && last !== undefined) {
        await this.notifier.notify(tx, { taskId, from: first.seq, to: last.seq });
      }
      return value;
    });
    for (const event of stored) this.bus.publish(taskId, event);
    return result;
  }

  emit(taskId: string, event: TaskEvent, changes?: TaskChanges): Promise<void> {
    return this.transact(taskId, (_tx, emit) => emit(event, changes));
  }

  load(taskId: string): Promise<LoopTask> {
    return loadLoopTask(this.db, taskId);
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
          cases: storedCases(run),
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
            sameTreeAs: result.sameTreeAs ?? null,
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
            // The winner's tests are the next iteration's reference; the others' are kept
            // (bounded) for the compare matrix.
            ...(result.name === report.winner
              ? { cases: storedCases(result) }
              : keptCasesColumn(result)),
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

  async recordThreadReplies(
    taskId: string,
    replies: readonly ThreadReply[],
    author: string,
  ): Promise<void> {
    await this.transact(taskId, async (tx, emit) => {
      await postFixerReplies(tx, taskId, replies, author);
      for (const reply of replies) {
        await emit({
          type: 'review.thread',
          threadId: reply.threadId,
          action: 'replied',
          by: author,
        });
      }
    });
  }

  async recordReview(
    taskId: string,
    artifact: ReviewArtifact,
    evidence: { readonly partial: boolean; readonly stillFailing: readonly string[] },
  ): Promise<void> {
    await this.transact(taskId, (tx, emit) => writeReview(tx, emit, taskId, artifact, evidence));
  }
}

/**
 * Puts `artifact` up for review inside a transaction: the reviewers' threads move onto it, its
 * bytes are stored by hash, and `review.ready` announces it (clearing any approval). The loop's
 * reviews and a reviewer's promotion of a runner-up (promote-hypothesis.ts) both come here.
 */
export async function writeReview(
  tx: Tx,
  emit: (event: TaskEvent, changes?: TaskChanges) => Promise<void>,
  taskId: string,
  artifact: ReviewArtifact,
  evidence: { readonly partial: boolean; readonly stillFailing: readonly string[] },
): Promise<void> {
  // The reviewers' threads move to the same code in the new diff (or become outdated).
  await moveThreads(tx, taskId, artifact.sha256, artifact.bytes.toString('utf8'));
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
    // A request to send to review now is answered by this review.
    {
      reviewPartial: evidence.partial,
      stillFailing: evidence.stillFailing,
      reviewNowRequestedBy: null,
    },
  );
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
