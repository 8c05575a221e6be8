import type { Db } from '../db/client';
import type { Tx } from '../db/transaction';
import type { GateView, MilestoneStatus, PlanStepView } from './task-api';

type Reader = Db | Tx;

/**
 * The plan's steps with each gate's newest run. A gate counts only when its newest run was on the
 * task's newest checkpoint: a later write makes every earlier gate result stale.
 */
export async function loadPlan(db: Reader, taskId: string): Promise<PlanStepView[]> {
  const [task, steps] = await Promise.all([
    db.task.findUnique({ where: { id: taskId }, select: { checkpointSha: true } }),
    db.planStep.findMany({
      where: { taskId },
      orderBy: { index: 'asc' },
      include: {
        runs: {
          orderBy: { createdAt: 'desc' },
          select: {
            gateIndex: true,
            exitCode: true,
            timedOut: true,
            error: true,
            parsed: true,
            failed: true,
            commitSha: true,
            createdAt: true,
          },
        },
      },
    }),
  ]);
  const checkpoint = task?.checkpointSha ?? null;
  return steps.map((step) => ({
    index: step.index,
    title: step.title,
    scope: step.scope,
    status: step.status === 'done' ? 'done' : 'open',
    doneAt: step.doneAt?.toISOString() ?? null,
    gates: (step.gates as string[][]).map((argv, gate): GateView => {
      const run = step.runs.find((r) => r.gateIndex === gate);
      return {
        argv,
        lastRun:
          run === undefined
            ? null
            : {
                green:
                  run.exitCode === 0 &&
                  !run.timedOut &&
                  run.error === null &&
                  !(run.parsed && run.failed > 0),
                exitCode: run.exitCode,
                commitSha: run.commitSha,
                at: run.createdAt.toISOString(),
                current: checkpoint !== null && run.commitSha === checkpoint,
              },
      };
    }),
  }));
}

export function milestoneStatus(steps: readonly PlanStepView[]): MilestoneStatus {
  return { current: steps.find((s) => s.status === 'open') ?? null, steps };
}

/** Why step N may not be marked done yet, or null when every gate ran green after the last write. */
export function gateProblem(step: PlanStepView): string | null {
  if (step.gates.length === 0) return null;
  const problems = step.gates.flatMap((gate, i) => {
    const name = `gate ${i + 1} (${gate.argv.join(' ')})`;
    if (gate.lastRun === null) return [`${name} has not run yet`];
    if (!gate.lastRun.current) return [`${name} has not run since the last write`];
    if (!gate.lastRun.green) {
      return [`${name} ran red on the last write (exit ${String(gate.lastRun.exitCode)})`];
    }
    return [];
  });
  return problems.length === 0 ? null : problems.join('; ');
}
