import { recordAudit } from '../audit/audit-log';
import { actorLabel, auditedAs } from '../auth/actor';
import { AppError } from '../errors/app-error';
import { gateProblem, loadPlan, milestoneStatus } from './plan-views';
import { requireTask } from './task-access';
import type { Actor, MilestoneAction, MilestoneResult } from './task-api';
import type { TaskServiceDeps } from './task-service-deps';

export interface MilestoneOptions {
  readonly taskId: string;
  readonly action: MilestoneAction;
  readonly actor: Actor;
}

/**
 * `milestone status | done N | reset N`. Done is a claim the server checks against its own log:
 * accepted only when every gate command of step N ran green on the task's newest checkpoint.
 */
export async function milestone(
  deps: Pick<TaskServiceDeps, 'store' | 'clock'>,
  { taskId, action, actor }: MilestoneOptions,
): Promise<MilestoneResult> {
  const by = actorLabel(actor);
  return deps.store.transact(taskId, async (tx, emit) => {
    await requireTask(tx, taskId, actor, action.action === 'status' ? 'see' : 'submit');
    const task = await tx.task.findUnique({
      where: { id: taskId },
      select: { checkpointSha: true },
    });
    if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    const steps = await loadPlan(tx, taskId);
    if (action.action === 'status') return { accepted: true, status: milestoneStatus(steps) };
    const step = steps.find((s) => s.index === action.step);
    if (step === undefined) {
      throw new AppError(
        'INVALID_ARGUMENT',
        steps.length === 0
          ? `task ${taskId} has no plan`
          : `task ${taskId} has no step ${action.step} (steps 1–${steps.length})`,
      );
    }
    if (action.action === 'reset') {
      await tx.planStep.update({
        where: { taskId_index: { taskId, index: step.index } },
        data: { status: 'open', doneAt: null, doneAtSha: null },
      });
      await recordAudit(tx, {
        ...auditedAs(actor),
        action: 'milestone.reset',
        target: taskId,
        details: { step: step.index },
      });
      await emit({ type: 'milestone.reset', step: step.index, by });
      return { accepted: true, status: milestoneStatus(await loadPlan(tx, taskId)) };
    }
    const problem =
      task.checkpointSha === null ? 'the task has no checkpoint yet' : gateProblem(step);
    if (problem !== null) {
      return {
        accepted: false,
        reason: `step ${step.index} is not done: ${problem}`,
        status: milestoneStatus(steps),
      };
    }
    if (step.status !== 'done') {
      await tx.planStep.update({
        where: { taskId_index: { taskId, index: step.index } },
        data: { status: 'done', doneAt: deps.clock.now(), doneAtSha: task.checkpointSha },
      });
      await recordAudit(tx, {
        ...auditedAs(actor),
        action: 'milestone.done',
        target: taskId,
        details: { step: step.index },
      });
      await emit({
        type: 'milestone.done',
        step: step.index,
        commitSha: task.checkpointSha ?? '',
        by,
      });
    }
    return { accepted: true, status: milestoneStatus(await loadPlan(tx, taskId)) };
  });
}
