import { testEditorsOf } from '../review/test-edits';
import type { Hypothesis } from '../shadow/hypothesis';
import type { CandidateHypothesis, RejectedHypothesis, ThreadReply } from './fixer';
import type { LoopTask } from './loop-ports';
import { failingIds, remainingFailures } from './run-evidence';
import { again, done, type StepContext, type StepOutcome } from './step-context';
import { emptyReport, evidenceOf, noFailures, touchedPaths } from './step-values';
import { noMoreHypotheses, putUpForReview } from './step-review';
import { runGates, shadowRunFor } from './step-runs';

// An iteration: hypotheses from the fixer, run against the checkpoint, the winner committed.

/**
 * Under review: new hypotheses take the task back to work if the budget allows. An approved task
 * keeps them waiting until a reviewer reopens it (the lifecycle refuses its new iteration).
 */
export async function reopenAfterReview(step: StepContext, task: LoopTask): Promise<StepOutcome> {
  if (task.status !== 'awaiting_review') return done;
  if (task.iterationCount >= task.maxIterations) return done;
  const pending = await step.deps.store.pendingHypotheses(step.taskId);
  if (pending.length === 0) return done;
  await step.deps.store.beginIteration(step.taskId, task.iterationCount + 1);
  return again;
}

export async function runIteration(step: StepContext, task: LoopTask): Promise<StepOutcome> {
  const iteration = step.required(task.currentIteration, 'current iteration');
  const workspace = await step.deps.workspaces.open(task);
  let candidates: readonly CandidateHypothesis[];
  let rejected: readonly RejectedHypothesis[] = [];
  // A fixer's answers to the round's threads: posted once the run says whose change landed.
  let replies: readonly ThreadReply[] = [];
  let replier = '';
  if (iteration.taken) {
    // A step ran these and did not finish (crash, restart): start over from the checkpoint.
    await workspace.rollbackTo(step.required(task.checkpointSha, 'checkpoint'));
    candidates = await step.deps.store.takenHypotheses(step.taskId, iteration.index);
    await step.emit({
      type: 'task.resumed',
      status: task.status,
      checkpointSha: task.checkpointSha,
    });
  } else {
    // A person asked to stop waiting: the checkpoint (beyond the baseline) goes to review as it
    // is, partial unless what it leaves failing is all known failures now.
    const beyondBaseline =
      task.checkpointSha !== null && task.checkpointSha !== task.baselineCommit;
    if (task.reviewNowRequestedBy !== null && beyondBaseline) {
      return noMoreHypotheses(step, task, `sent to review by ${task.reviewNowRequestedBy}`);
    }
    const fixer = task.fixer === 'external' ? step.deps.fixer : step.deps.fixers?.[task.fixer];
    if (fixer === undefined) {
      return step.end(task, {
        type: 'task.failed',
        reason: `this server has no '${task.fixer}' fixer configured`,
      });
    }
    const decision = await fixer.decide(
      {
        taskId: step.taskId,
        task: { title: task.title, problem: task.problem, issueUrl: task.issueUrl },
        iteration: iteration.index,
        wanted: task.hypothesesPerIteration,
        iterationStartedAt: iteration.startedAt,
        waitMs: task.hypothesisWaitMs,
        now: step.deps.clock.now(),
        workspace: workspace.path,
        testCommand: task.testCommand,
        lastRun: task.lastRun,
        failingTests: task.referenceRun === null ? [] : failingIds(task.referenceRun),
        recentlyBroken: task.recentlyBroken,
        pending: await step.deps.store.pendingHypotheses(step.taskId),
        repository: step.deps.workspaces.repository(task),
        allowTestEdits: task.allowTestEdits,
        tokensLeft: task.maxTokens === null ? null : Math.max(0, task.maxTokens - task.tokensUsed),
        review: iteration.reviewRound > 0 ? task.review : null,
      },
      step.signal,
    );
    if (decision.kind !== 'wait' && decision.spend !== undefined) {
      await step.deps.store.recordSpend(step.taskId, decision.spend);
    }
    if (decision.kind === 'give_up') return noMoreHypotheses(step, task, decision.reason);
    if (decision.kind === 'wait') {
      if (task.status !== 'awaiting_hypotheses') {
        await step.emit({
          type: 'iteration.awaiting_hypotheses',
          index: iteration.index,
          wanted: task.hypothesesPerIteration,
          deadline: new Date(iteration.startedAt.getTime() + task.hypothesisWaitMs).toISOString(),
        });
      }
      const budgetEnd = step.budgetEnd(task);
      const until = budgetEnd !== null && budgetEnd < decision.until ? budgetEnd : decision.until;
      return { kind: 'park', until };
    }
    candidates = decision.hypotheses;
    rejected = decision.rejected ?? [];
    await step.deps.store.takeHypotheses(step.taskId, iteration.index, candidates);
    replies = decision.replies ?? [];
    replier = `fixer:${fixer.name}`;
  }

  const hypotheses = candidates.map((c) => c.hypothesis);
  // A hypothesis that edits tests could pass by weakening them, one that reaches into the test
  // framework by forging the report: unless the task allows test edits, it runs and is shown,
  // but ranks last and cannot win.
  const demote = task.allowTestEdits
    ? new Map<string, string>()
    : await testEditors(step, task, hypotheses);
  const reference = task.referenceRun ?? task.baselineRun;
  // Every sample a fixer produced may have been rejected: a red iteration with nothing to run.
  const report =
    hypotheses.length === 0
      ? emptyReport(step.deps.shadows.mode)
      : await shadowRunFor(step, task, workspace, iteration.index, hypotheses, {
          apply: true,
          demote,
          ...(reference === null ? {} : { reference: evidenceOf(reference) }),
          reviewRound: iteration.reviewRound > 0,
        });
  if (report === null) return step.aborted(task);
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
  await step.deps.store.recordIteration(step.taskId, {
    index: iteration.index,
    report,
    command: task.testCommand,
    checkpointSha,
    green,
    rejected,
  });
  const landed = replies.filter(
    (r) => r.hypothesis === undefined || r.hypothesis === report.winner,
  );
  if (landed.length > 0) await step.deps.store.recordThreadReplies(step.taskId, landed, replier);
  if (!(await runGates(step, task, workspace, checkpointSha))) return step.aborted(task);
  if (green) return putUpForReview(step, { ...task, checkpointSha }, workspace, noFailures);
  // A review round has one iteration: its winner, or else the checkpoint it was asked to change,
  // goes back to the reviewers (with what still fails, as before the round).
  if (iteration.reviewRound > 0) {
    return checkpointSha !== null && left !== null
      ? putUpForReview(step, { ...task, checkpointSha }, workspace, left)
      : noMoreHypotheses(
          step,
          task,
          `no hypothesis answered review round ${iteration.reviewRound}`,
        );
  }
  if (iteration.index < task.maxIterations) {
    await step.deps.store.beginIteration(step.taskId, iteration.index + 1);
    return again;
  }
  const progressed = checkpointSha !== null ? { ...task, checkpointSha } : task;
  return noMoreHypotheses(
    step,
    progressed,
    `no hypothesis made the tests pass in ${task.maxIterations} iteration(s)`,
    left ?? undefined,
  );
}

/**
 * Hypotheses that edit tests, by name, with what they edit: test files, test configuration,
 * tests inside source files, and ordinary code that reaches into the test framework. Read
 * against the newest checkpoint, which they change.
 */
export async function testEditors(
  step: StepContext,
  task: LoopTask,
  hypotheses: readonly Hypothesis[],
): Promise<Map<string, string>> {
  const repository = step.deps.workspaces.repository(task);
  return testEditorsOf(
    hypotheses,
    async (path) => repository.readFile(path).catch(() => null),
    task.testCommand,
  );
}
