import { readableError, readableText } from '../../errors/readable-error';
import type { Clock } from '../ports';
import type { HypothesisOutcome, ShadowRunReport } from '../shadow/shadow-report';
import type { ShadowRunRequest } from '../shadow/shadow-request';
import type { Hypothesis } from '../shadow/hypothesis';
import { SerialWriter, LineBatcher } from './event-queue';
import type { CandidateHypothesis, Fixer, RejectedHypothesis } from './fixer';
import { testEditsOf, type FileChange } from '../review/test-edits';
import type { TestEvidence } from '../shadow/test-delta';
import type {
  LoopTask,
  LoopWorkspace,
  ReviewArtifact,
  ReviewerPort,
  SetupPort,
  SetupRecord,
  SetupRunResult,
  ShadowPort,
  TaskLoopStore,
  WorkspacePort,
} from './loop-ports';
import type { RunSummary, TaskEvent } from './task-events';
import { activeStatuses } from './task-status';
import { isPass } from '../shadow/rank';
import { baselineProblem, failingIds, remainingFailures } from './run-evidence';

/** How a step ends, for the job runner: finished, run again now, or wait. */
export type StepOutcome =
  | { readonly kind: 'done' }
  | { readonly kind: 'continue' }
  /** Wait for a submission (a wake-up), or until `until` at the latest. */
  | { readonly kind: 'park'; readonly until: Date | null };

export interface LoopDeps {
  readonly store: TaskLoopStore;
  readonly workspaces: WorkspacePort;
  readonly shadows: ShadowPort;
  /** The fixer of tasks whose `fixer` is 'external'. */
  readonly fixer: Fixer;
  /** Other fixers by name (e.g. 'llm'), when configured. */
  readonly fixers?: Readonly<Record<string, Fixer>>;
  readonly clock: Clock;
  /** Comments on every diff put up for review, when configured. */
  readonly reviewer?: ReviewerPort;
  readonly buildReview: (input: {
    readonly diff: Buffer;
    readonly subject: string;
    readonly body: string;
    readonly date: Date;
    readonly commit: string;
  }) => ReviewArtifact;
  /** Installs dependencies before the baseline; without it the baseline runs on the bare tree. */
  readonly setup?: SetupPort;
  /** For the whole setup; default 15 minutes. */
  readonly setupTimeoutMs?: number;
  /** Per test run; the task's remaining wall-clock budget caps it further. */
  readonly runTimeoutMs?: number;
  readonly outputFlushMs?: number;
}

export const maxIterationsCeiling = 10;
const defaultRunTimeoutMs = 10 * 60 * 1000;
const defaultSetupTimeoutMs = 15 * 60 * 1000;
const done = { kind: 'done' } as const;
const again = { kind: 'continue' } as const;

export function summarize(outcome: HypothesisOutcome): RunSummary {
  const { name: _name, changedLines: _lines, ...run } = outcome;
  // Judged against a reference, the verdict is the shadow run's; alone, the run must pass.
  const green =
    outcome.tests === null ? isPass({ ...outcome, index: 0 }) : outcome.disqualified === null;
  return { ...run, green };
}

/** What the timeline carries of a run: everything but the per-test list (kept on the run row). */
const withoutCases = <T extends { readonly cases: readonly unknown[] }>(run: T): T => ({
  ...run,
  cases: [],
});

const evidenceOf = (run: RunSummary): TestEvidence => run;

type Failures = ReturnType<typeof remainingFailures>;
const noFailures: Failures = { ids: [], count: 0 };

const emptyReport = (mode: ShadowRunReport['mode']): ShadowRunReport => ({
  mode,
  winner: null,
  winnerDiff: null,
  hypotheses: [],
  applied: false,
});

/** Files a hypothesis writes or deletes: exactly what its checkpoint commits. */
const touchedPaths = (h: Hypothesis): string[] => [...h.edits.map((e) => e.path), ...h.delete];

/**
 * Advances one task by one phase of its loop and says what should happen next. Every phase reads
 * the task afresh and is safe to run again after a crash: the worktree is first reset to the last
 * checkpoint the database knows, so a half-applied winner or a half-run baseline leaves no trace.
 */
export async function stepTask(
  deps: LoopDeps,
  taskId: string,
  signal: AbortSignal,
): Promise<StepOutcome> {
  const step = new TaskStep(deps, taskId, signal);
  return step.run();
}

/**
 * Ends a task whose steps keep failing (or that cannot resume after a restart): the worktree goes
 * back to the baseline commit and the task ends `interrupted` with the reason, stored as one
 * readable line (a described error's stack frames and the server's own paths are cut).
 */
export async function abandonTask(deps: LoopDeps, taskId: string, reason: string): Promise<void> {
  const task = await deps.store.load(taskId);
  if (!activeStatuses.has(task.status)) return;
  await new TaskStep(deps, taskId, new AbortController().signal).interrupt(task, reason);
}

class TaskStep {
  constructor(
    private readonly deps: LoopDeps,
    private readonly taskId: string,
    private readonly signal: AbortSignal,
  ) {}

  private emit(event: TaskEvent, changes?: Parameters<TaskLoopStore['emit']>[2]): Promise<void> {
    return this.deps.store.emit(this.taskId, event, changes);
  }

  async run(): Promise<StepOutcome> {
    const task = await this.deps.store.load(this.taskId);
    if (task.cancelRequestedBy !== null && activeStatuses.has(task.status)) {
      return this.end(task, { type: 'task.cancelled', by: task.cancelRequestedBy });
    }
    if (!activeStatuses.has(task.status)) return this.afterReview(task);
    const budgetEnd = this.budgetEnd(task);
    if (budgetEnd !== null && budgetEnd <= this.deps.clock.now()) {
      return this.end(task, {
        type: 'task.failed',
        reason: `the wall-clock budget of ${Math.round(task.maxWallClockMs / 1000)} s is spent`,
      });
    }
    switch (task.status) {
      case 'queued':
        await this.emit({ type: 'task.preparing' }, { startedAt: this.deps.clock.now() });
        return again;
      case 'preparing':
        return this.prepare(task);
      case 'setup':
        return this.setup(task);
      case 'baseline':
        return this.baseline(task);
      default:
        return this.iterate(task);
    }
  }

  private budgetEnd(task: LoopTask): Date | null {
    return task.startedAt === null
      ? null
      : new Date(task.startedAt.getTime() + task.maxWallClockMs);
  }

  /** A run's timeout: `limit` (default: the per-run one), capped by the budget left. */
  private runTimeout(
    task: LoopTask,
    limit = this.deps.runTimeoutMs ?? defaultRunTimeoutMs,
  ): number {
    const end = this.budgetEnd(task);
    if (end === null) return limit;
    return Math.max(1000, Math.min(limit, end.getTime() - this.deps.clock.now().getTime()));
  }

  private async prepare(task: LoopTask): Promise<StepOutcome> {
    const writer = new SerialWriter();
    let lastProgress = 0;
    const prepared = await this.deps.workspaces.prepare(task, {
      emit: (event) => {
        // Progress is cumulative: a few a second tell the story, thousands would flood the log.
        if (event.type === 'intake.progress' || event.type === 'intake.git.progress') {
          const now = this.deps.clock.monotonicMs();
          if (now - lastProgress < 250) return;
          lastProgress = now;
        }
        writer.push(() => this.emit(event));
      },
    });
    await writer.drain();
    if (!prepared.ok) {
      return this.end(task, {
        type: 'task.failed',
        reason: `${prepared.code}: ${prepared.message}`,
      });
    }
    await this.emit(
      {
        type: 'workspace.ready',
        baselineCommit: prepared.baselineCommit,
        worktreePath: prepared.workspace.path,
        mode: this.deps.shadows.mode,
        fallbackReason: this.deps.shadows.fallbackReason,
      },
      {
        sourceId: prepared.sourceId,
        baselineCommit: prepared.baselineCommit,
        checkpointSha: prepared.baselineCommit,
        worktreePath: prepared.workspace.path,
      },
    );
    const setup = this.deps.setup;
    if (setup === undefined) {
      await this.emit({ type: 'baseline.started', command: task.testCommand });
      return again;
    }
    const plan = await setup.plan(task, prepared.workspace);
    await this.emit({
      type: 'setup.started',
      commands: plan.commands,
      detected: plan.detected,
      reasons: plan.reasons,
    });
    return again;
  }

  /**
   * Installs the task's dependencies in its worktree, once. It starts from a clean tree (what a
   * crashed attempt half-installed is removed first) and a failure removes what it installed, so
   * no later run ever sees half a setup.
   */
  private async setup(task: LoopTask): Promise<StepOutcome> {
    const setup = this.required(this.deps.setup ?? null, 'setup port');
    const baselineCommit = this.required(task.baselineCommit, 'baseline commit');
    const workspace = await this.deps.workspaces.open(task);
    await workspace.rollbackTo(baselineCommit, { keepIgnored: false });
    const plan = await setup.plan(task, workspace);
    const writer = new SerialWriter();
    const lines = new LineBatcher(
      (subject, batch) =>
        writer.push(() => this.emit({ type: 'run.output', subject, iteration: 0, lines: batch })),
      this.deps.outputFlushMs,
    );
    const timeoutMs = this.runTimeout(task, this.deps.setupTimeoutMs ?? defaultSetupTimeoutMs);
    let result;
    try {
      result = await setup.run(task, workspace, plan, {
        onLine: (line) => lines.add('setup', line),
        signal: this.signal,
        timeoutMs,
      });
    } finally {
      lines.flushAll();
      await writer.drain();
    }
    if (this.signal.aborted) return this.aborted(task);
    const record: SetupRecord = {
      commands: plan.commands,
      detected: plan.detected,
      reasons: plan.reasons,
      cached: result.cached,
      durationMs: result.durationMs,
      egress: result.egress,
      env: plan.env,
    };
    await this.emit({ type: 'setup.finished', ...result }, { setup: record });
    if (!result.ok) {
      await workspace.rollbackTo(baselineCommit, { keepIgnored: false });
      return this.end(task, { type: 'task.failed', reason: setupFailureReason(result) });
    }
    await this.emit({ type: 'baseline.started', command: task.testCommand });
    return again;
  }

  /**
   * Runs the tests on the checkpoint in the worktree itself, so its build outputs stay and the
   * first hypothesis builds incrementally. A baseline that cannot tell anything ends the task.
   */
  private async baseline(task: LoopTask): Promise<StepOutcome> {
    const workspace = await this.deps.workspaces.open(task);
    await workspace.rollbackTo(this.required(task.baselineCommit, 'baseline commit'));
    const report = await this.shadowRun(
      task,
      workspace,
      0,
      [{ name: 'baseline', edits: [], delete: [] }],
      { inWorkspace: true },
    );
    if (report === null) return this.aborted(task);
    const outcome = report.hypotheses[0];
    if (outcome === undefined) throw new Error('the baseline run reported nothing');
    // Whatever the tests wrote to tracked files is undone; their ignored build outputs stay.
    await workspace.rollbackTo(this.required(task.baselineCommit, 'baseline commit'));
    const run = summarize(outcome);
    await this.deps.store.recordBaseline(this.taskId, task.testCommand, report.mode, run);
    const problem = baselineProblem(run, task.testCommand);
    if (problem !== null) return this.end(task, { type: 'task.failed', reason: problem });
    if (!(await this.runGates(task, workspace, task.baselineCommit))) return this.aborted(task);
    await this.deps.store.beginIteration(this.taskId, 1);
    return again;
  }

  /** Under review or approved: new hypotheses reopen the task if the budget allows. */
  private async afterReview(task: LoopTask): Promise<StepOutcome> {
    if (task.status !== 'awaiting_review' && task.status !== 'approved') return done;
    if (task.iterationCount >= task.maxIterations) return done;
    const pending = await this.deps.store.pendingHypotheses(this.taskId);
    if (pending.length === 0) return done;
    await this.deps.store.beginIteration(this.taskId, task.iterationCount + 1);
    return again;
  }

  private async iterate(task: LoopTask): Promise<StepOutcome> {
    const iteration = this.required(task.currentIteration, 'current iteration');
    const workspace = await this.deps.workspaces.open(task);
    let candidates: readonly CandidateHypothesis[];
    let rejected: readonly RejectedHypothesis[] = [];
    if (iteration.taken) {
      // A step ran these and did not finish (crash, restart): start over from the checkpoint.
      await workspace.rollbackTo(this.required(task.checkpointSha, 'checkpoint'));
      candidates = await this.deps.store.takenHypotheses(this.taskId, iteration.index);
      await this.emit({
        type: 'task.resumed',
        status: task.status,
        checkpointSha: task.checkpointSha,
      });
    } else {
      const fixer = task.fixer === 'external' ? this.deps.fixer : this.deps.fixers?.[task.fixer];
      if (fixer === undefined) {
        return this.end(task, {
          type: 'task.failed',
          reason: `this server has no '${task.fixer}' fixer configured`,
        });
      }
      const decision = await fixer.decide(
        {
          taskId: this.taskId,
          iteration: iteration.index,
          wanted: task.hypothesesPerIteration,
          iterationStartedAt: iteration.startedAt,
          waitMs: task.hypothesisWaitMs,
          now: this.deps.clock.now(),
          workspace: workspace.path,
          testCommand: task.testCommand,
          lastRun: task.lastRun,
          failingTests: task.referenceRun === null ? [] : failingIds(task.referenceRun),
          recentlyBroken: task.recentlyBroken,
          pending: await this.deps.store.pendingHypotheses(this.taskId),
          repository: this.deps.workspaces.repository(task),
          allowTestEdits: task.allowTestEdits,
          tokensLeft:
            task.maxTokens === null ? null : Math.max(0, task.maxTokens - task.tokensUsed),
        },
        this.signal,
      );
      if (decision.kind !== 'wait' && decision.spend !== undefined) {
        await this.deps.store.recordSpend(this.taskId, decision.spend);
      }
      if (decision.kind === 'give_up') return this.noMoreHypotheses(task, decision.reason);
      if (decision.kind === 'wait') {
        if (task.status !== 'awaiting_hypotheses') {
          await this.emit({
            type: 'iteration.awaiting_hypotheses',
            index: iteration.index,
            wanted: task.hypothesesPerIteration,
            deadline: new Date(iteration.startedAt.getTime() + task.hypothesisWaitMs).toISOString(),
          });
        }
        const budgetEnd = this.budgetEnd(task);
        const until = budgetEnd !== null && budgetEnd < decision.until ? budgetEnd : decision.until;
        return { kind: 'park', until };
      }
      candidates = decision.hypotheses;
      rejected = decision.rejected ?? [];
      await this.deps.store.takeHypotheses(this.taskId, iteration.index, candidates);
    }

    const hypotheses = candidates.map((c) => c.hypothesis);
    // A hypothesis that edits tests could pass by weakening them: unless the task allows it, it
    // runs and is shown, but ranks last and cannot win.
    const demote = task.allowTestEdits
      ? new Map<string, string>()
      : await this.testEditors(task, hypotheses);
    const reference = task.referenceRun ?? task.baselineRun;
    // Every sample a fixer produced may have been rejected: a red iteration with nothing to run.
    const report =
      hypotheses.length === 0
        ? emptyReport(this.deps.shadows.mode)
        : await this.shadowRun(task, workspace, iteration.index, hypotheses, {
            apply: true,
            demote,
            ...(reference === null ? {} : { reference: evidenceOf(reference) }),
          });
    if (report === null) return this.aborted(task);
    const winner = hypotheses.find((h) => h.name === report.winner);
    const checkpointSha =
      report.applied && winner !== undefined
        ? await workspace.checkpoint(
            `Iteration ${iteration.index}: ${winner.name}`,
            touchedPaths(winner),
          )
        : null;
    const winning = report.hypotheses.find((h) => h.name === report.winner);
    const left = winning === undefined ? null : remainingFailures(winning, task.knownFailures);
    // Green: every failure fixed but the known ones. A winner that left some is progress, kept
    // as the checkpoint the next iteration builds on.
    const green = left !== null && left.count === 0;
    await this.deps.store.recordIteration(this.taskId, {
      index: iteration.index,
      report,
      command: task.testCommand,
      checkpointSha,
      green,
      rejected,
    });
    if (!(await this.runGates(task, workspace, checkpointSha))) return this.aborted(task);
    if (green) return this.review({ ...task, checkpointSha }, workspace, noFailures);
    if (iteration.index < task.maxIterations) {
      await this.deps.store.beginIteration(this.taskId, iteration.index + 1);
      return again;
    }
    const progressed = checkpointSha !== null ? { ...task, checkpointSha } : task;
    return this.noMoreHypotheses(
      progressed,
      `no hypothesis made the tests pass in ${task.maxIterations} iteration(s)`,
      left ?? undefined,
    );
  }

  /**
   * Hypotheses that edit tests, by name, with what they edit: test files, test configuration,
   * tests inside source files. Read against the newest checkpoint, which they change.
   */
  private async testEditors(
    task: LoopTask,
    hypotheses: readonly Hypothesis[],
  ): Promise<Map<string, string>> {
    const repository = this.deps.workspaces.repository(task);
    const before = async (path: string): Promise<string | null> =>
      repository.readFile(path).catch(() => null);
    const demote = new Map<string, string>();
    for (const h of hypotheses) {
      const changes: FileChange[] = [
        ...(await Promise.all(
          h.edits.map(async (e) => ({
            path: e.path,
            before: await before(e.path),
            after: e.content,
          })),
        )),
        ...(await Promise.all(
          h.delete.map(async (path) => ({ path, before: await before(path), after: null })),
        )),
      ];
      const edits = testEditsOf(changes);
      if (edits.length > 0) {
        const what = edits.map((e) => e.what).join('; ');
        demote.set(h.name, `it edits tests, which this task does not allow (${what})`);
      }
    }
    return demote;
  }

  /**
   * Out of hypotheses or iterations: a checkpoint beyond the baseline (it fixed some failures and
   * broke none) goes to review, marked partial when failures remain; nothing gained fails.
   */
  private async noMoreHypotheses(
    task: LoopTask,
    reason: string,
    stillFailing?: Failures,
  ): Promise<StepOutcome> {
    if (task.checkpointSha !== null && task.checkpointSha !== task.baselineCommit) {
      const workspace = await this.deps.workspaces.open(task);
      const left =
        stillFailing ??
        (task.referenceRun === null
          ? noFailures
          : remainingFailures(task.referenceRun, task.knownFailures));
      return this.review(task, workspace, left);
    }
    return this.end(task, { type: 'task.failed', reason });
  }

  private async review(
    task: LoopTask,
    workspace: LoopWorkspace,
    left: Failures,
  ): Promise<StepOutcome> {
    const stillFailing = left.ids;
    const baseline = this.required(task.baselineCommit, 'baseline commit');
    const head = this.required(task.checkpointSha, 'checkpoint');
    const diff = await workspace.diffBetween(baseline, head);
    // By count where the runner names no tests: a failure left is a failure left.
    const partial = left.count > 0;
    const artifact = this.deps.buildReview({
      diff,
      subject: `${partial ? 'Fix some of' : 'Fix'} the failing tests (Shadowbox task ${this.taskId})`,
      body:
        `Found by Shadowbox in ${task.iterationCount} iteration(s); tested with: ${task.testCommand.join(' ')}` +
        (!partial
          ? ''
          : stillFailing.length === 0
            ? `\n\n${left.count} test(s) still failing, as at the baseline.`
            : `\n\nStill failing, as at the baseline:\n${stillFailing.map((id) => `  ${id}`).join('\n')}`),
      date: this.deps.clock.now(),
      commit: head,
    });
    await this.deps.store.recordReview(this.taskId, artifact, { partial, stillFailing });
    await this.commentOnReview(task, artifact);
    return done;
  }

  interrupt(task: LoopTask, reason: string): Promise<StepOutcome> {
    return this.end(task, { type: 'task.interrupted', reason });
  }

  /** The reviewer model's comment; its failure is a comment too, never a failed task. */
  private async commentOnReview(task: LoopTask, artifact: ReviewArtifact): Promise<void> {
    const reviewer = this.deps.reviewer;
    if (reviewer === undefined) return;
    let verdict = 'unsure';
    let comment: string;
    try {
      const review = await reviewer.review(
        {
          diff: artifact.bytes.toString('utf8'),
          flags: artifact.flags,
          testCommand: task.testCommand,
          baseline: task.baselineRun,
          final: task.lastRun,
        },
        this.signal,
      );
      ({ verdict, comment } = review);
      if (review.spend.tokens > 0) await this.deps.store.recordSpend(this.taskId, review.spend);
    } catch (error) {
      if (this.signal.aborted) return;
      comment = `the review model failed: ${readableError(error)}`;
    }
    await this.deps.store.recordReviewerComment(this.taskId, {
      reviewer: `model:${reviewer.name}`,
      verdict,
      comment,
      diffSha256: artifact.sha256,
    });
  }

  /** A step interrupted by its signal: a cancel ends the task; a shutdown leaves it to resume. */
  private async aborted(task: LoopTask): Promise<StepOutcome> {
    const fresh = await this.deps.store.load(this.taskId);
    if (fresh.cancelRequestedBy !== null) {
      return this.end(task, { type: 'task.cancelled', by: fresh.cancelRequestedBy });
    }
    return again;
  }

  /** Every non-success outcome rolls the worktree back to the baseline commit, then ends the task. */
  private async end(
    task: LoopTask,
    event: Extract<TaskEvent, { type: 'task.failed' | 'task.cancelled' | 'task.interrupted' }>,
  ): Promise<StepOutcome> {
    if (task.baselineCommit !== null && task.sourceId !== null) {
      const workspace = await this.deps.workspaces.open(task).catch(() => null);
      if (workspace !== null) {
        await workspace.rollbackTo(task.baselineCommit);
        await this.emit({ type: 'task.rolled_back', to: task.baselineCommit });
      }
    }
    // What is stored and shown: never a stack trace or a path into the server's code.
    const ended =
      event.type === 'task.cancelled' ? event : { ...event, reason: readableText(event.reason) };
    const reason = ended.type === 'task.cancelled' ? `cancelled by ${ended.by}` : ended.reason;
    await this.emit(ended, {
      finishedAt: this.deps.clock.now(),
      error: reason,
      ...(task.baselineCommit === null ? {} : { checkpointSha: task.baselineCommit }),
    });
    return done;
  }

  /**
   * After each write (the baseline, a committed winner) the open plan steps' gate commands run on
   * that checkpoint, in parallel shadows: their results are the evidence `milestone done` needs.
   * False when the signal cut the runs short (nothing is recorded then).
   */
  private async runGates(
    task: LoopTask,
    workspace: LoopWorkspace,
    commitSha: string | null,
  ): Promise<boolean> {
    const gates = task.openSteps.flatMap((step) =>
      step.gates.map((argv, gate) => ({ step: step.index, gate, argv })),
    );
    if (commitSha === null || gates.length === 0) return true;
    const outcomes = await Promise.all(
      gates.map((g) =>
        this.deps.shadows.run(
          {
            workspace: workspace.path,
            command: g.argv,
            hypotheses: [{ name: `gate-${g.step}-${g.gate + 1}`, edits: [], delete: [] }],
            ...this.runSettings(task),
            signal: this.signal,
          },
          { emit: () => undefined },
        ),
      ),
    );
    if (this.signal.aborted) return false;
    await this.deps.store.recordGateRuns(
      this.taskId,
      commitSha,
      this.deps.shadows.mode,
      gates.map((g, i) => {
        const outcome = outcomes[i]?.hypotheses[0];
        if (outcome === undefined) throw new Error(`gate ${g.step}.${g.gate + 1} reported nothing`);
        return { ...g, run: summarize(outcome) };
      }),
    );
    return true;
  }

  /** Runs hypotheses in shadows, streaming their events; null when the signal cut it short. */
  private async shadowRun(
    task: LoopTask,
    workspace: LoopWorkspace,
    index: number,
    hypotheses: readonly Hypothesis[],
    options: Pick<ShadowRunRequest, 'apply' | 'demote' | 'reference' | 'inWorkspace'> = {},
  ): Promise<ShadowRunReport | null> {
    const writer = new SerialWriter();
    const lines = new LineBatcher(
      (subject, batch) =>
        writer.push(() =>
          this.emit({ type: 'run.output', subject, iteration: index, lines: batch }),
        ),
      this.deps.outputFlushMs,
    );
    let report: ShadowRunReport;
    try {
      report = await this.deps.shadows.run(
        {
          workspace: workspace.path,
          command: task.testCommand,
          hypotheses,
          ...options,
          ...this.runSettings(task),
          allowMissing: task.allowTestEdits,
          signal: this.signal,
        },
        {
          emit: (event) => {
            if (event.type === 'hypothesis.output') lines.add(event.name, event.line);
            else if (index > 0 && event.type === 'hypothesis.started') {
              writer.push(() => this.emit({ type: 'hypothesis.started', index, name: event.name }));
            } else if (index > 0 && event.type === 'hypothesis.finished') {
              lines.flush(event.result.name);
              const result = withoutCases(event.result);
              writer.push(() => this.emit({ type: 'hypothesis.finished', index, result }));
            }
          },
        },
      );
    } finally {
      lines.flushAll();
      await writer.drain();
    }
    return this.signal.aborted ? null : report;
  }

  /** What every run of the task shares: its build step, caps, timeout and setup's variables. */
  private runSettings(
    task: LoopTask,
  ): Pick<ShadowRunRequest, 'buildCommand' | 'limits' | 'timeoutMs' | 'env'> {
    return {
      ...(task.buildCommand === null ? {} : { buildCommand: task.buildCommand }),
      limits: task.limits,
      timeoutMs: this.runTimeout(task),
      env: task.setup?.env ?? {},
    };
  }

  private required<T>(value: T | null, what: string): T {
    if (value === null) throw new Error(`task ${this.taskId} has no ${what}`);
    return value;
  }
}

/** One line a person can act on: which command failed how, and what the proxy refused. */
function setupFailureReason(result: SetupRunResult): string {
  const command = result.failedCommand === null ? '' : ` '${result.failedCommand.join(' ')}'`;
  const what =
    result.error ??
    `setup${command} ${result.timedOut ? 'timed out' : `exited with ${String(result.exitCode)}`}`;
  const refused = result.egress.filter((e) => !e.allowed).map((e) => `${e.host}:${e.port}`);
  return `${what}${refused.length === 0 ? '' : `; refused: ${refused.join(', ')}`}`;
}
