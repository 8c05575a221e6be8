import type { LoopTask } from './loop-ports';
import { baselineProblem } from './run-evidence';
import { again, type StepContext, type StepOutcome } from './step-context';
import { summarize } from './step-values';
import { runGates, shadowRunFor } from './step-runs';

// The baseline: the tests on the checkpoint, in the worktree itself.

/**
 * Runs the tests on the checkpoint in the worktree itself, so its build outputs stay and the
 * first hypothesis builds incrementally. A baseline that cannot tell anything ends the task.
 */
export async function recordBaseline(step: StepContext, task: LoopTask): Promise<StepOutcome> {
  const workspace = await step.deps.workspaces.open(task);
  await workspace.rollbackTo(step.required(task.baselineCommit, 'baseline commit'));
  const report = await shadowRunFor(
    step,
    task,
    workspace,
    0,
    [{ name: 'baseline', edits: [], delete: [] }],
    { inWorkspace: true },
  );
  if (report === null) return step.aborted(task);
  const outcome = report.hypotheses[0];
  if (outcome === undefined) throw new Error('the baseline run reported nothing');
  // Whatever the tests wrote to tracked files is undone; their ignored build outputs stay.
  await workspace.rollbackTo(step.required(task.baselineCommit, 'baseline commit'));
  const run = summarize(outcome);
  await step.deps.store.recordBaseline(step.taskId, task.testCommand, report.mode, run);
  const problem = baselineProblem(run, task.testCommand, task.setup);
  if (problem !== null) return step.end(task, { type: 'task.failed', reason: problem });
  if (!(await runGates(step, task, workspace, task.baselineCommit))) return step.aborted(task);
  await step.deps.store.beginIteration(step.taskId, 1);
  return again;
}
