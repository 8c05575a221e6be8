import { runLimitsProblem } from '../engine/sandbox';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { recordAudit } from '../audit/audit-log';
import { actorLabel } from '../auth/api-tokens';
import type { Db } from '../db/client';
import { eventsSince, type StoredEvent } from '../db/event-store';
import { inTransaction } from '../db/transaction';
import { AppError } from '../errors/app-error';
import type { GitUrlPolicy } from '../engine/intake/git-url-policy';
import { activeStatuses } from '../engine/loop/task-status';
import { maxIterationsCeiling } from '../engine/loop/task-step';
import {
  checkBuildCommand,
  checkCommand,
  checkSetupCommand,
} from '../engine/policy/command-policy';
import { verifySha256 } from '../engine/review/review-artifact';
import { pathProblem } from '../engine/shadow/hypothesis-paths';
import { listTreeFiles, readTreeFile } from '../engine/workspace/tree-files';
import type { Hypothesis } from '../engine/shadow/hypothesis';
import { createSourceFromArchive } from '../engine/workspace/create-source';
import { sourceGitDir, type WorkspaceLayout } from '../engine/workspace/workspace-layout';
import type { Clock } from '../engine/ports';
import { statusOf, type PrismaTaskStore } from './prisma-task-store';
import type {
  Actor,
  CreateTaskInput,
  DiffView,
  PatchDownload,
  ReviewInput,
  TaskServiceApi,
  TaskSummary,
  TaskView,
  WorkspaceFile,
  MilestoneAction,
  MilestoneResult,
  PlanStepInput,
} from './task-api';
import { milestone } from './milestone-service';
import { submitHypotheses } from './submit-hypotheses';
import type { TaskEventBus } from './task-event-bus';
import { flagsOf, listTaskSummaries, loadTaskView } from './task-views';
import { createWorkspaceCleaner } from './workspace-cleaner';

/** How the service hands tasks to the job runner. */
export interface TaskScheduler {
  /** Makes the task's next step due now (creates its job, or wakes it). */
  schedule(taskId: string): Promise<void>;
  /** Interrupts the task's running step in this process, if any. */
  interrupt(taskId: string): void;
}

export interface TaskServiceDeps {
  readonly db: Db;
  readonly store: PrismaTaskStore;
  readonly bus: TaskEventBus;
  readonly layout: WorkspaceLayout;
  readonly scheduler: TaskScheduler;
  readonly gitPolicy: GitUrlPolicy;
  readonly clock: Clock;
  /** Whether an LLM fixer is configured (tasks may ask for `fixer: 'llm'`). */
  readonly llmAvailable?: boolean;
  /** The token cap of an LLM task that sets none. */
  readonly defaultTaskTokenBudget?: number;
  /** How often an SSE stream re-reads the database without a notification (other processes). */
  readonly eventPollMs?: number;
  /** Hypotheses a task may hold waiting to run (default 64); one more is refused (INBOX_FULL). */
  readonly maxPendingHypotheses?: number | undefined;
}

export const defaults = {
  maxIterations: 3,
  hypothesesPerIteration: 3,
  maxHypothesesPerIteration: 16,
} as const;

function checkRange(
  name: string,
  value: number | undefined,
  max: number,
  fallback: number,
): number {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `${name} must be a whole number from 1 to ${max}, got ${String(value)}`,
    );
  }
  return n;
}

const maxPlanSteps = 50;
const maxGatesPerStep = 10;

/** Every gate command passes the command policy, like the test command. */
function checkPlan(plan: readonly PlanStepInput[]): readonly PlanStepInput[] {
  if (plan.length > maxPlanSteps) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `a plan may have at most ${maxPlanSteps} steps, got ${plan.length}`,
    );
  }
  plan.forEach((step, i) => {
    if (step.title.trim() === '' || step.title.length > 200) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `plan step ${i + 1} needs a title of 1 to 200 characters`,
      );
    }
    if (step.gates.length > maxGatesPerStep) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `plan step ${i + 1} has ${step.gates.length} gates; at most ${maxGatesPerStep}`,
      );
    }
    step.gates.forEach((argv, g) => {
      const verdict = checkCommand(argv);
      if (!verdict.ok) {
        throw new AppError(
          'COMMAND_NOT_ALLOWED',
          `plan step ${i + 1}, gate ${g + 1}: ${verdict.message}`,
        );
      }
    });
  });
  return plan;
}

const maxSetupCommands = 16;
const maxKnownFailures = 1000;

function checkSetupCommands(
  commands: readonly (readonly string[])[] | undefined,
): readonly (readonly string[])[] | undefined {
  if (commands === undefined) return undefined;
  if (commands.length > maxSetupCommands) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `a task may have at most ${maxSetupCommands} setup commands, got ${commands.length}`,
    );
  }
  commands.forEach((argv, i) => {
    const verdict = checkSetupCommand(argv);
    if (!verdict.ok) {
      throw new AppError('COMMAND_NOT_ALLOWED', `setup command ${i + 1}: ${verdict.message}`);
    }
  });
  return commands;
}

function checkKnownFailures(ids: readonly string[]): readonly string[] {
  if (ids.length > maxKnownFailures) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `knownFailures may list at most ${maxKnownFailures} tests, got ${ids.length}`,
    );
  }
  ids.forEach((id, i) => {
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    if (id.trim() === '' || id.length > 1000 || /[\u0000-\u001f]/.test(id)) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `knownFailures[${i}] must be a test id of 1 to 1000 printable characters`,
      );
    }
  });
  return ids;
}

export class TaskService implements TaskServiceApi {
  private readonly cleaner;

  constructor(private readonly deps: TaskServiceDeps) {
    this.cleaner = createWorkspaceCleaner(deps.layout);
  }

  async createTask(input: CreateTaskInput, actor: Actor): Promise<{ readonly id: string }> {
    const { store } = this.deps;
    const source = input.source;
    try {
      const maxIterations = checkRange(
        'maxIterations',
        input.maxIterations,
        maxIterationsCeiling,
        defaults.maxIterations,
      );
      const hypothesesPerIteration = checkRange(
        'hypothesesPerIteration',
        input.hypothesesPerIteration,
        defaults.maxHypothesesPerIteration,
        defaults.hypothesesPerIteration,
      );
      const verdict = checkCommand(input.testCommand);
      if (!verdict.ok) throw new AppError('COMMAND_NOT_ALLOWED', verdict.message);
      const plan = checkPlan(input.plan ?? []);
      const setupCommands = checkSetupCommands(input.setupCommands);
      if (input.buildCommand !== undefined) {
        const build = checkBuildCommand(input.buildCommand);
        if (!build.ok) throw new AppError('COMMAND_NOT_ALLOWED', `build command: ${build.message}`);
      }
      const knownFailures = checkKnownFailures(input.knownFailures ?? []);
      const fixer = input.fixer ?? 'external';
      if (fixer === 'llm' && !this.deps.llmAvailable) {
        throw new AppError(
          'INVALID_ARGUMENT',
          'this server has no LLM configured (set SHADOWBOX_LLM_BASE_URL and SHADOWBOX_LLM_MODEL)',
        );
      }
      if (
        input.maxTokens !== undefined &&
        !(Number.isInteger(input.maxTokens) && input.maxTokens > 0)
      ) {
        throw new AppError(
          'INVALID_ARGUMENT',
          `maxTokens must be a positive whole number, got ${String(input.maxTokens)}`,
        );
      }
      const limits = input.limits ?? {};
      const limitsProblem = runLimitsProblem(limits);
      if (limitsProblem !== null) throw new AppError('INVALID_ARGUMENT', limitsProblem);

      // Policy checks happen now, so a refused URL or archive is refused to the caller, not later
      // in the task's log. A git clone (slow, remote) then runs in the task's first step; an
      // archive is imported here (its bytes are already on this disk).
      let imported: { sourceId: string; commit: string; files: number; bytes: number } | null =
        null;
      if (source.kind === 'git') {
        const checked = await this.deps.gitPolicy.check(source.url);
        if (!checked.ok) throw checked.error;
      } else {
        const sourceId = `upload-${randomBytes(8).toString('hex')}`;
        let files = 0;
        let bytes = 0;
        const created = await createSourceFromArchive({
          layout: this.deps.layout,
          sourceId,
          archive: source.file,
          events: {
            emit: (event) => {
              if (event.type === 'intake.completed') ({ files, bytes } = event);
            },
          },
        });
        if (!created.ok) throw created.error;
        imported = { sourceId, commit: created.commit, files, bytes };
      }

      // The row and its audit entry first; the task's first events follow in their own transaction.
      const task = await inTransaction(this.deps.db, async (tx) => {
        const row = await tx.task.create({
          data: {
            sourceKind: source.kind,
            sourceUrl: source.kind === 'git' ? source.url : null,
            sourceRef: source.kind === 'git' ? (source.ref ?? null) : null,
            archiveName: source.kind === 'archive' ? source.name.slice(0, 255) : null,
            testCommand: [...input.testCommand],
            maxIterations,
            hypothesesPerIteration,
            sourceId: imported?.sourceId ?? null,
            baselineCommit: imported?.commit ?? null,
            fixer,
            allowTestEdits: input.allowTestEdits ?? false,
            maxMemoryMb: limits.maxMemoryMb ?? null,
            maxPids: limits.maxPids ?? null,
            maxDiskMb: limits.maxDiskMb ?? null,
            ...(setupCommands === undefined
              ? {}
              : { setupCommands: setupCommands.map((argv) => [...argv]) }),
            ...(input.buildCommand === undefined ? {} : { buildCommand: [...input.buildCommand] }),
            knownFailures: [...knownFailures],
            maxTokens:
              input.maxTokens ??
              (fixer === 'llm' ? (this.deps.defaultTaskTokenBudget ?? null) : null),
            planSteps: {
              create: plan.map((step, i) => ({
                index: i + 1,
                title: step.title,
                scope: step.scope ?? '',
                gates: step.gates.map((argv) => [...argv]),
              })),
            },
          },
          select: { id: true },
        });
        await recordAudit(tx, {
          actor: actorLabel(actor),
          action: 'task.create',
          target: row.id,
          details: { source: source.kind, testCommand: [...input.testCommand] },
        });
        return row;
      });
      await store.transact(task.id, async (_tx, emit) => {
        await emit({
          type: 'task.created',
          source:
            source.kind === 'git'
              ? { kind: 'git', url: source.url, ref: source.ref ?? null }
              : { kind: 'archive', name: source.name },
          testCommand: input.testCommand,
          maxIterations,
          hypothesesPerIteration,
        });
        if (imported !== null) {
          await emit({
            type: 'intake.completed',
            files: imported.files,
            bytes: imported.bytes,
            commit: imported.commit,
          });
        }
      });
      await this.deps.scheduler.schedule(task.id);
      return task;
    } finally {
      if (source.kind === 'archive') await rm(source.file, { force: true });
    }
  }

  submitHypotheses(
    taskId: string,
    hypotheses: readonly Hypothesis[],
    actor: Actor,
  ): Promise<{ readonly accepted: readonly string[] }> {
    return submitHypotheses(this.deps, taskId, hypotheses, actor);
  }

  getTask(taskId: string): Promise<TaskView> {
    return loadTaskView(this.deps.db, taskId);
  }

  listTasks(options: { readonly limit?: number } = {}): Promise<readonly TaskSummary[]> {
    return listTaskSummaries(this.deps.db, Math.min(Math.max(options.limit ?? 100, 1), 500));
  }

  private async currentDiff(taskId: string) {
    const task = await this.deps.db.task.findUnique({
      where: { id: taskId },
      select: { diff: true, status: true },
    });
    if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    if (task.diff === null) {
      throw new AppError(
        'NOT_FOUND',
        `task ${taskId} has no diff to review yet (it is ${task.status})`,
      );
    }
    const bytes = Buffer.from(task.diff.bytes);
    // The stored hash is what reviewers approve; bytes that no longer match it are never served.
    if (!verifySha256(bytes, task.diff.sha256)) {
      throw new AppError(
        'INTERNAL',
        `the stored diff of task ${taskId} does not match its SHA-256`,
      );
    }
    return { bytes, sha256: task.diff.sha256, flags: flagsOf(task.diff.flags) };
  }

  async getDiff(taskId: string): Promise<DiffView> {
    const { bytes, sha256, flags } = await this.currentDiff(taskId);
    return { diff: bytes.toString('utf8'), sha256, flags };
  }

  async getPatch(taskId: string): Promise<PatchDownload> {
    const { bytes, sha256 } = await this.currentDiff(taskId);
    return { bytes, sha256, fileName: `shadowbox-${taskId}-${sha256.slice(0, 12)}.patch` };
  }

  async review(taskId: string, input: ReviewInput, actor: Actor): Promise<TaskView> {
    if (actor.kind === 'token' && !actor.scopes.includes('reviewer')) {
      throw new AppError(
        'FORBIDDEN',
        "approving or rejecting needs a token with the 'reviewer' scope",
      );
    }
    const by = actorLabel(actor);
    const baseline = await this.deps.store.transact(taskId, async (tx, emit) => {
      const task = await tx.task.findUnique({
        where: { id: taskId },
        select: { status: true, diffSha256: true, baselineCommit: true },
      });
      if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
      const status = statusOf(task.status);
      const reviewable =
        input.verdict === 'approve'
          ? status === 'awaiting_review'
          : status === 'awaiting_review' || status === 'approved';
      if (!reviewable) {
        throw new AppError(
          'INVALID_STATE',
          `task ${taskId} is ${status}: there is nothing to ${input.verdict}`,
        );
      }
      if (task.diffSha256 !== input.sha256) {
        throw new AppError(
          'STALE_DIFF',
          `the diff changed since you loaded it: you reviewed ${input.sha256.slice(0, 12)}…, the current diff is ${String(task.diffSha256).slice(0, 12)}…; reload and review it again`,
          { details: { reviewed: input.sha256, current: task.diffSha256 } },
        );
      }
      await tx.review.create({
        data: {
          taskId,
          verdict: input.verdict,
          diffSha256: input.sha256,
          reviewer: by,
          comment: input.comment ?? null,
        },
      });
      await recordAudit(tx, {
        actor: by,
        action: `task.${input.verdict}`,
        target: taskId,
        details: { sha256: input.sha256 },
      });
      await emit(
        input.verdict === 'approve'
          ? { type: 'task.approved', sha256: input.sha256, by }
          : { type: 'task.rejected', sha256: input.sha256, by },
        input.verdict === 'reject' ? { finishedAt: this.deps.clock.now() } : {},
      );
      return task.baselineCommit;
    });
    if (input.verdict === 'reject' && baseline !== null) {
      const task = await this.deps.store.load(taskId);
      await this.cleaner.rollback(task, baseline);
      await this.deps.store.emit(
        taskId,
        { type: 'task.rolled_back', to: baseline },
        { checkpointSha: baseline },
      );
    }
    return this.getTask(taskId);
  }

  async cancel(taskId: string, actor: Actor): Promise<TaskView> {
    const by = actorLabel(actor);
    await this.deps.store.transact(taskId, async (tx) => {
      const task = await tx.task.findUnique({ where: { id: taskId }, select: { status: true } });
      if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
      const status = statusOf(task.status);
      if (!activeStatuses.has(status)) {
        throw new AppError(
          'INVALID_STATE',
          `task ${taskId} is ${status}: there is nothing to cancel`,
        );
      }
      await tx.task.update({ where: { id: taskId }, data: { cancelRequestedBy: by } });
      await recordAudit(tx, { actor: by, action: 'task.cancel', target: taskId });
    });
    // The step in progress (if any) dies now; the next step rolls back and ends the task.
    this.deps.scheduler.interrupt(taskId);
    await this.deps.scheduler.schedule(taskId);
    return this.getTask(taskId);
  }

  milestone(taskId: string, action: MilestoneAction, actor: Actor): Promise<MilestoneResult> {
    return milestone(this.deps, taskId, action, actor);
  }

  async rollback(taskId: string, actor: Actor): Promise<TaskView> {
    const task = await this.deps.store.load(taskId);
    if (activeStatuses.has(task.status)) return this.cancel(taskId, actor);
    if (task.status !== 'awaiting_review' && task.status !== 'approved') {
      throw new AppError(
        'INVALID_STATE',
        `task ${taskId} is ${task.status}: there is nothing to roll back`,
      );
    }
    const baseline = task.baselineCommit;
    if (baseline === null) throw new AppError('INTERNAL', `task ${taskId} has no baseline commit`);
    const by = actorLabel(actor);
    // The status changes first (a compare-and-set through the reducer), so a concurrent step
    // that reopened the task makes this refuse instead of resetting a worktree in use.
    await this.deps.store.transact(taskId, async (tx, emit) => {
      await recordAudit(tx, { actor: by, action: 'task.rollback', target: taskId });
      await emit(
        { type: 'task.abandoned', by },
        { finishedAt: this.deps.clock.now(), error: `rolled back by ${by}` },
      );
    });
    await this.cleaner.rollback(task, baseline);
    await this.deps.store.emit(
      taskId,
      { type: 'task.rolled_back', to: baseline },
      { checkpointSha: baseline },
    );
    return this.getTask(taskId);
  }

  private async checkpointOf(taskId: string): Promise<{ gitDir: string; commit: string }> {
    const task = await this.deps.db.task.findUnique({
      where: { id: taskId },
      select: { sourceId: true, checkpointSha: true, status: true },
    });
    if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    if (task.sourceId === null || task.checkpointSha === null) {
      throw new AppError(
        'INVALID_STATE',
        `task ${taskId} has no workspace yet (it is ${task.status})`,
      );
    }
    return { gitDir: sourceGitDir(this.deps.layout, task.sourceId), commit: task.checkpointSha };
  }

  async listFiles(taskId: string): Promise<readonly WorkspaceFile[]> {
    const { gitDir, commit } = await this.checkpointOf(taskId);
    return listTreeFiles(gitDir, commit);
  }

  async readFile(taskId: string, path: string): Promise<string> {
    const problem = pathProblem(path);
    if (problem !== null) throw new AppError('INVALID_ARGUMENT', `path '${path}' ${problem}`);
    const { gitDir, commit } = await this.checkpointOf(taskId);
    return readTreeFile(gitDir, commit, path);
  }

  async *taskChanges(
    signal: AbortSignal,
  ): AsyncIterable<{ readonly taskId: string; readonly seq: number }> {
    const queue: { taskId: string; seq: number }[] = [];
    let wake: (() => void) | null = null;
    const unsubscribe = this.deps.bus.subscribeAll((taskId, seq) => {
      queue.push({ taskId, seq });
      wake?.();
    });
    const onAbort = () => wake?.();
    signal.addEventListener('abort', onAbort);
    try {
      while (!isAborted(signal)) {
        const next = queue.shift();
        if (next !== undefined) {
          yield next;
          continue;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    } finally {
      unsubscribe();
      signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Backlog from the database, then live events as this process commits them. The sequence
   * numbers decide: a repeat is dropped, a gap (an event committed by another process, or
   * delivered out of order) is filled from the database, which is also re-read every few seconds.
   */
  async *events(taskId: string, afterSeq: number, signal: AbortSignal): AsyncIterable<StoredEvent> {
    const { db, bus } = this.deps;
    const exists = await db.task.findUnique({ where: { id: taskId }, select: { id: true } });
    if (exists === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    const live: StoredEvent[] = [];
    const waiting = { wake: null as (() => void) | null };
    // Subscribed before the backlog is read, so nothing committed in between is missed.
    const unsubscribe = bus.subscribe(taskId, (event) => {
      live.push(event);
      waiting.wake?.();
    });
    const onAbort = () => waiting.wake?.();
    signal.addEventListener('abort', onAbort);
    let seen = afterSeq;
    try {
      let catchUp = true;
      while (!isAborted(signal)) {
        if (catchUp) {
          const batch = await eventsSince(db, taskId, seen, 500);
          for (const event of batch) {
            if (isAborted(signal)) return;
            seen = event.seq;
            yield event;
          }
          catchUp = batch.length === 500;
          continue;
        }
        const next = live.shift();
        if (next === undefined) {
          const woken = await Promise.race([
            new Promise<boolean>((resolve) => (waiting.wake = () => resolve(true))),
            sleep(this.deps.eventPollMs ?? 2000, false, { ref: false }),
          ]);
          waiting.wake = null;
          catchUp = !woken;
        } else if (next.seq === seen + 1) {
          seen = next.seq;
          yield next;
        } else if (next.seq > seen + 1) {
          catchUp = true;
        }
      }
    } finally {
      unsubscribe();
      signal.removeEventListener('abort', onAbort);
    }
  }
}

// Read through functions: the stream's awaits change these behind the type checker's back.
const isAborted = (signal: AbortSignal): boolean => signal.aborted;
