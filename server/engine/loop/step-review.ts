import { readableError } from '../../errors/readable-error';
import type { LoopTask, LoopWorkspace, ReviewArtifact } from './loop-ports';
import { reviewMessage } from './review-message';
import { remainingFailures } from './run-evidence';
import { done, type StepContext, type StepOutcome } from './step-context';
import { noFailures, type Failures } from './step-values';

// Putting a checkpoint up for review (complete or partial), and the reviewer model's comment.

/**
 * Out of hypotheses or iterations: a checkpoint beyond the baseline (it fixed some failures and
 * broke none) goes to review, marked partial when failures remain; nothing gained fails.
 */
export async function noMoreHypotheses(
  step: StepContext,
  task: LoopTask,
  reason: string,
  stillFailing?: Failures,
): Promise<StepOutcome> {
  if (task.checkpointSha !== null && task.checkpointSha !== task.baselineCommit) {
    const workspace = await step.deps.workspaces.open(task);
    const left =
      stillFailing ??
      (task.referenceRun === null
        ? noFailures
        : remainingFailures(task.referenceRun, task.knownFailures));
    return putUpForReview(step, task, workspace, left);
  }
  return step.end(task, { type: 'task.failed', reason });
}

export async function putUpForReview(
  step: StepContext,
  task: LoopTask,
  workspace: LoopWorkspace,
  left: Failures,
): Promise<StepOutcome> {
  const stillFailing = left.ids;
  const baseline = step.required(task.baselineCommit, 'baseline commit');
  const head = step.required(task.checkpointSha, 'checkpoint');
  const diff = await workspace.diffBetween(baseline, head);
  // By count where the runner names no tests: a failure left is a failure left.
  const partial = left.count > 0;
  const artifact = step.deps.buildReview({
    diff,
    ...reviewMessage(task, step.taskId, left),
    date: step.deps.clock.now(),
    commit: head,
  });
  await step.deps.store.recordReview(step.taskId, artifact, { partial, stillFailing });
  await commentOnReview(step, task, artifact);
  return done;
}

/** The reviewer model's comment; its failure is a comment too, never a failed task. */
export async function commentOnReview(
  step: StepContext,
  task: LoopTask,
  artifact: ReviewArtifact,
): Promise<void> {
  const reviewer = step.deps.reviewer;
  if (reviewer === undefined) return;
  let verdict = 'unsure';
  let comment: string;
  try {
    const review = await reviewer.review(
      {
        task: { title: task.title, problem: task.problem, issueUrl: task.issueUrl },
        diff: artifact.bytes.toString('utf8'),
        flags: artifact.flags,
        testCommand: task.testCommand,
        baseline: task.baselineRun,
        final: task.lastRun,
      },
      step.signal,
    );
    ({ verdict, comment } = review);
    if (review.spend.tokens > 0) await step.deps.store.recordSpend(step.taskId, review.spend);
  } catch (error) {
    if (step.signal.aborted) return;
    comment = `the review model failed: ${readableError(error)}`;
  }
  await step.deps.store.recordReviewerComment(step.taskId, {
    reviewer: `model:${reviewer.name}`,
    verdict,
    comment,
    diffSha256: artifact.sha256,
  });
}
