import { rebuildGap } from '../policy/rebuild-gap';
import { LineBatcher, SerialWriter } from './event-queue';
import type { LoopTask, LoopWorkspace, SetupPort, SetupRecord, SetupRunResult } from './loop-ports';
import { again, type StepContext, type StepOutcome } from './step-context';
import { setupFailureReason } from './step-values';

// The first phases: the workspace (intake, worktree), then its setup.

const defaultSetupTimeoutMs = 15 * 60 * 1000;

export async function prepareWorkspace(step: StepContext, task: LoopTask): Promise<StepOutcome> {
  const writer = new SerialWriter();
  let lastProgress = 0;
  const prepared = await step.deps.workspaces.prepare(task, {
    emit: (event) => {
      // Progress is cumulative: a few a second tell the story, thousands would flood the log.
      if (event.type === 'intake.progress' || event.type === 'intake.git.progress') {
        const now = step.deps.clock.monotonicMs();
        if (now - lastProgress < 250) return;
        lastProgress = now;
      }
      writer.push(() => step.emit(event));
    },
  });
  await writer.drain();
  if (!prepared.ok) {
    return step.end(task, {
      type: 'task.failed',
      reason: `${prepared.code}: ${prepared.message}`,
    });
  }
  await step.emit(
    {
      type: 'workspace.ready',
      baselineCommit: prepared.baselineCommit,
      worktreePath: prepared.workspace.path,
      mode: step.deps.shadows.mode,
      fallbackReason: step.deps.shadows.fallbackReason,
    },
    {
      sourceId: prepared.sourceId,
      baselineCommit: prepared.baselineCommit,
      checkpointSha: prepared.baselineCommit,
      worktreePath: prepared.workspace.path,
    },
  );
  const setup = step.deps.setup;
  if (setup === undefined) {
    await step.emit({ type: 'baseline.started', command: task.testCommand });
    return again;
  }
  // The task as it is now: a Git URL's baseline commit exists only since the clone above.
  const preparedTask = {
    ...task,
    sourceId: prepared.sourceId,
    baselineCommit: prepared.baselineCommit,
    checkpointSha: prepared.baselineCommit,
  };
  const plan = await setup.plan(preparedTask, prepared.workspace);
  await step.emit({
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
export async function setUpWorkspace(step: StepContext, task: LoopTask): Promise<StepOutcome> {
  const setup = step.required(step.deps.setup ?? null, 'setup port');
  const baselineCommit = step.required(task.baselineCommit, 'baseline commit');
  // Refused at creation since; a task stored before would test its baseline's binaries.
  const gap = rebuildGap(task);
  if (gap !== null) return step.end(task, { type: 'task.failed', reason: gap });
  const workspace = await step.deps.workspaces.open(task);
  await workspace.rollbackTo(baselineCommit, { keepIgnored: false });
  const ran = await runTaskSetup(step, task, setup, workspace);
  if (ran === null) return step.aborted(task);
  await step.emit({ type: 'setup.finished', ...ran.result }, { setup: ran.record });
  if (!ran.result.ok) {
    await workspace.rollbackTo(baselineCommit, { keepIgnored: false });
    return step.end(task, { type: 'task.failed', reason: setupFailureReason(ran.result) });
  }
  await step.emit({ type: 'baseline.started', command: task.testCommand });
  return again;
}

/**
 * Runs the task's setup in `workspace`, its output streamed as events, and says what to record;
 * null when the step's signal stopped it. Also what a worker runs again in a rebuilt worktree.
 */
export async function runTaskSetup(
  step: StepContext,
  task: LoopTask,
  setup: SetupPort,
  workspace: LoopWorkspace,
): Promise<{ readonly result: SetupRunResult; readonly record: SetupRecord } | null> {
  const plan = await setup.plan(task, workspace);
  const writer = new SerialWriter();
  const lines = new LineBatcher(
    (subject, batch) =>
      writer.push(() => step.emit({ type: 'run.output', subject, iteration: 0, lines: batch })),
    step.deps.outputFlushMs,
  );
  const timeoutMs = step.runTimeout(task, step.deps.setupTimeoutMs ?? defaultSetupTimeoutMs);
  let result;
  try {
    result = await setup.run(task, workspace, plan, {
      onLine: (line) => lines.add('setup', line),
      signal: step.signal,
      timeoutMs,
    });
  } finally {
    lines.flushAll();
    await writer.drain();
  }
  if (step.signal.aborted) return null;
  const record: SetupRecord = {
    commands: plan.commands,
    detected: plan.detected,
    reasons: plan.reasons,
    cached: result.cached,
    durationMs: result.durationMs,
    egress: result.egress,
    env: plan.env,
    build: plan.build ?? null,
  };
  return { result, record };
}
