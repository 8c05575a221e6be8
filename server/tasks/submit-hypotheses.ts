import { lstat } from 'node:fs/promises';
import { recordAudit } from '../audit/audit-log';
import { actorLabel, auditedAs, personOf } from '../auth/actor';
import { prismaCode, type Tx } from '../db/transaction';
import { AppError } from '../errors/app-error';
import { activeStatuses, canApply } from '../engine/lifecycle';
import {
  type Hypothesis,
  checkHypothesisAgainst,
  checkHypothesisPaths,
  workspaceEntries,
  type EntryLookup,
} from '../engine/shadow';
import { worktreePath } from '../engine/workspace';
import { insertHypothesis } from './hypothesis-rows';
import type { Actor } from './task-api';
import { requireTask } from './task-access';
import { statusOf } from './task-rows';
import type { TaskServiceDeps } from './task-service-deps';
import { refuseWhileApproved } from './approved-guard';

/** Hypotheses one task may hold waiting for an iteration, unless configured otherwise. */
export const defaultMaxPendingHypotheses = 64;
/** Hypotheses in one submission (the REST and MCP schemas say the same). */
export const maxHypothesesPerSubmission = 16;

export type SubmitHypothesesDeps = Pick<
  TaskServiceDeps,
  'db' | 'store' | 'layout' | 'clock' | 'scheduler' | 'maxPendingHypotheses'
>;

export interface SubmitHypothesesOptions {
  readonly taskId: string;
  readonly hypotheses: readonly Hypothesis[];
  readonly actor: Actor;
}

/** The refusal of a submission that would take a task past its cap, or null when it fits. */
export function inboxFullError(
  taskId: string,
  pending: number,
  submitted: number,
  cap: number,
): AppError | null {
  if (pending + submitted <= cap) return null;
  const message =
    pending >= cap
      ? `task ${taskId} already holds ${pending} pending hypotheses (the cap is ${cap}); wait for the iteration to run them`
      : `task ${taskId} holds ${pending} pending hypotheses and takes at most ${cap}: send at most ${cap - pending} more (not ${submitted}), or wait for the iteration to run them`;
  return new AppError('INBOX_FULL', message, { details: { pending, submitted, cap } });
}

/** What can be refused without the task: the count, each hypothesis's paths, repeated names. */
export function checkSubmission(hypotheses: readonly Hypothesis[]): Set<string> {
  if (hypotheses.length === 0) throw new AppError('INVALID_ARGUMENT', 'no hypotheses given');
  if (hypotheses.length > maxHypothesesPerSubmission) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `send at most ${maxHypothesesPerSubmission} hypotheses at once, got ${hypotheses.length}`,
    );
  }
  const names = new Set<string>();
  for (const h of hypotheses) {
    checkHypothesisPaths(h);
    if (names.has(h.name)) {
      throw new AppError('INVALID_HYPOTHESIS', `hypothesis name '${h.name}' appears twice`);
    }
    names.add(h.name);
  }
  return names;
}

/** Every hypothesis against the workspace `lookup` describes (a file cannot hold files…). */
export async function checkAgainstEntries(
  hypotheses: readonly Hypothesis[],
  lookup: EntryLookup,
): Promise<void> {
  for (const h of hypotheses) await checkHypothesisAgainst(h, lookup);
}

interface AcceptingTask {
  readonly status: string;
  readonly iterationCount: number;
  readonly maxIterations: number;
  readonly cancelRequestedBy: string | null;
}

const acceptingSelect = {
  status: true,
  iterationCount: true,
  maxIterations: true,
  cancelRequestedBy: true,
  checkpointSha: true,
} as const;

/** Refuses unless the task takes hypotheses: active, or under review with iterations left. */
function checkAccepting(taskId: string, task: AcceptingTask): void {
  const status = statusOf(task.status);
  refuseWhileApproved(taskId, status, 'it takes hypotheses');
  // Under review, a new iteration takes the task back to work.
  const reopening = canApply(status, 'iteration.started') && !activeStatuses.has(status);
  if ((!activeStatuses.has(status) && !reopening) || task.cancelRequestedBy !== null) {
    throw new AppError('INVALID_STATE', `task ${taskId} is ${status}: it takes no more hypotheses`);
  }
  if (reopening && task.iterationCount >= task.maxIterations) {
    throw new AppError(
      'INVALID_STATE',
      `task ${taskId} has used all ${task.maxIterations} iterations; create a new task to go on`,
    );
  }
}

/**
 * The task's row, locked for the rest of the transaction: on PostgreSQL the update holds the row
 * lock, on SQLite the write lock, so two submissions count the inbox one after the other.
 */
async function lockTask(tx: Tx, taskId: string, now: Date) {
  try {
    return await tx.task.update({
      where: { id: taskId },
      data: { updatedAt: now },
      select: acceptingSelect,
    });
  } catch (error) {
    if (prismaCode(error) === 'P2025') throw new AppError('NOT_FOUND', `no task ${taskId}`);
    throw error;
  }
}

/**
 * Queues hypotheses for the task's next iteration, all or none. Refused before anything is stored:
 * bad paths (also against the task's worktree, which the loop keeps at its newest checkpoint: a path under a file, over a
 * directory, a deletion of a directory or of nothing), repeated names, a task that takes none, and
 * a submission that would take the task past its cap of pending hypotheses (INBOX_FULL).
 */
export async function submitHypotheses(
  deps: SubmitHypothesesDeps,
  { taskId, hypotheses, actor }: SubmitHypothesesOptions,
): Promise<{ readonly accepted: readonly string[] }> {
  const names = checkSubmission(hypotheses);
  await requireTask(deps.db, taskId, actor, 'submit');
  const cap = deps.maxPendingHypotheses ?? defaultMaxPendingHypotheses;
  const current = await deps.db.task.findUnique({ where: { id: taskId }, select: acceptingSelect });
  if (current === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
  // A task that takes nothing says so, rather than what is wrong with the paths.
  checkAccepting(taskId, current);
  // Before its first checkpoint the task has no worktree: the engine checks when it runs them.
  if (current.checkpointSha !== null) {
    const worktree = worktreePath(deps.layout, taskId);
    const present = await lstat(worktree).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (present) await checkAgainstEntries(hypotheses, workspaceEntries(worktree));
  }
  const origin = actor.kind === 'user' ? 'human' : 'external';
  const author = actorLabel(actor);
  const submittedById = personOf(actor)?.id ?? null;
  await deps.store.transact(taskId, async (tx, emit) => {
    const now = deps.clock.now();
    checkAccepting(taskId, await lockTask(tx, taskId, now));
    const pending = await tx.hypothesis.count({ where: { taskId, iterationId: null } });
    const full = inboxFullError(taskId, pending, hypotheses.length, cap);
    if (full !== null) throw full;
    const waiting = await tx.hypothesis.findFirst({
      where: { taskId, iterationId: null, name: { in: [...names] } },
      select: { name: true },
    });
    if (waiting !== null) {
      throw new AppError(
        'INVALID_HYPOTHESIS',
        `a hypothesis named '${waiting.name}' is already waiting to run`,
      );
    }
    for (const hypothesis of hypotheses) {
      await insertHypothesis(
        tx,
        taskId,
        null,
        { hypothesis, origin, author, submittedAt: now },
        submittedById,
      );
    }
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: 'hypotheses.submit',
      target: taskId,
      details: { names: [...names] },
    });
    await emit({ type: 'hypotheses.submitted', names: [...names], origin });
  });
  await deps.scheduler.schedule(taskId);
  return { accepted: [...names] };
}
