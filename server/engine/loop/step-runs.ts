import type { Hypothesis } from '../shadow/hypothesis';
import type { ShadowRunReport } from '../shadow/shadow-report';
import type { ShadowRunRequest } from '../shadow/shadow-request';
import { LineBatcher, SerialWriter } from './event-queue';
import type { LoopTask, LoopWorkspace } from './loop-ports';
import { type StepContext } from './step-context';
import { summarize, withoutCases } from './step-values';

// Test runs of a step: hypotheses in shadows with their events streamed, and the plan's gates.

/**
 * After each write (the baseline, a committed winner) the open plan steps' gate commands run on
 * that checkpoint, in parallel shadows: their results are the evidence `milestone done` needs.
 * False when the signal cut the runs short (nothing is recorded then).
 */
export async function runGates(
  step: StepContext,
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
      step.deps.shadows.run(
        {
          workspace: workspace.path,
          command: g.argv,
          hypotheses: [{ name: `gate-${g.step}-${g.gate + 1}`, edits: [], delete: [] }],
          ...runSettings(step, task),
          signal: step.signal,
        },
        { emit: () => undefined },
      ),
    ),
  );
  if (step.signal.aborted) return false;
  await step.deps.store.recordGateRuns(
    step.taskId,
    commitSha,
    step.deps.shadows.mode,
    gates.map((g, i) => {
      const outcome = outcomes[i]?.hypotheses[0];
      if (outcome === undefined) throw new Error(`gate ${g.step}.${g.gate + 1} reported nothing`);
      return { ...g, run: summarize(outcome) };
    }),
  );
  return true;
}

/** Runs hypotheses in shadows, streaming their events; null when the signal cut it short. */
export async function shadowRunFor(
  step: StepContext,
  task: LoopTask,
  workspace: LoopWorkspace,
  index: number,
  hypotheses: readonly Hypothesis[],
  options: Pick<
    ShadowRunRequest,
    'apply' | 'demote' | 'reference' | 'inWorkspace' | 'reviewRound'
  > = {},
): Promise<ShadowRunReport | null> {
  const writer = new SerialWriter();
  const lines = new LineBatcher(
    (subject, batch) =>
      writer.push(() => step.emit({ type: 'run.output', subject, iteration: index, lines: batch })),
    step.deps.outputFlushMs,
  );
  let report: ShadowRunReport;
  try {
    report = await step.deps.shadows.run(
      {
        workspace: workspace.path,
        command: task.testCommand,
        hypotheses,
        ...options,
        ...runSettings(step, task),
        allowMissing: task.allowTestEdits,
        signal: step.signal,
      },
      {
        emit: (event) => {
          if (event.type === 'hypothesis.output') lines.add(event.name, event.line);
          else if (index > 0 && event.type === 'hypothesis.started') {
            writer.push(() => step.emit({ type: 'hypothesis.started', index, name: event.name }));
          } else if (index > 0 && event.type === 'hypothesis.finished') {
            lines.flush(event.result.name);
            const result = withoutCases(event.result);
            writer.push(() => step.emit({ type: 'hypothesis.finished', index, result }));
          }
        },
      },
    );
  } finally {
    lines.flushAll();
    await writer.drain();
  }
  return step.signal.aborted ? null : report;
}

/** What every run of the task shares: its build step, caps, timeout and setup's variables. */
export function runSettings(
  step: StepContext,
  task: LoopTask,
): Pick<ShadowRunRequest, 'buildCommand' | 'limits' | 'timeoutMs' | 'env'> {
  return {
    ...(task.buildCommand === null ? {} : { buildCommand: task.buildCommand }),
    limits: task.limits,
    timeoutMs: step.runTimeout(task),
    env: task.setup?.env ?? {},
  };
}
