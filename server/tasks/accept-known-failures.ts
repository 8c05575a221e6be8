import { recordAudit } from '../audit/audit-log';
import { actorLabel, auditedAs } from '../auth/actor';
import { AppError } from '../errors/app-error';
import { getTask } from './get-task';
import { checkpointFailures } from './known-failure-offer';
import { requireTask } from './task-access';
import type { Actor, TaskView } from './task-api';
import { json, statusOf } from './task-rows';
import type { TaskServiceDeps } from './task-service-deps';

export type AcceptKnownFailuresDeps = Pick<
  TaskServiceDeps,
  'db' | 'store' | 'scheduler' | 'layout'
>;

export interface AcceptKnownFailuresOptions {
  readonly taskId: string;
  /** Tests of the offer (knownFailureOffer) to treat as known failures from now on. */
  readonly ids: readonly string[];
  readonly actor: Actor;
}

/**
 * Accepts tests that failed before any change, and still fail, as known failures. A task waiting
 * for hypotheses with nothing else failing is woken, and its checkpoint goes to review, complete. A
 * partial fix under review stops listing them as still failing. Only the offer can be accepted:
 * a test that passed at the baseline, or that the checkpoint fixed, is never made "known".
 */
export async function acceptKnownFailures(
  deps: AcceptKnownFailuresDeps,
  { taskId, ids, actor }: AcceptKnownFailuresOptions,
): Promise<TaskView> {
  if (ids.length === 0) {
    throw new AppError('INVALID_ARGUMENT', 'name at least one test to accept as a known failure');
  }
  const by = actorLabel(actor);
  const wake = await deps.store.transact(taskId, async (tx, emit) => {
    await requireTask(tx, taskId, actor, 'steer');
    const task = await tx.task.findUnique({
      where: { id: taskId },
      select: { status: true, knownFailures: true, reviewPartial: true, stillFailing: true },
    });
    if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    const status = statusOf(task.status);
    const partialReview = status === 'awaiting_review' && task.reviewPartial;
    if (status !== 'awaiting_hypotheses' && !partialReview) {
      throw new AppError(
        'INVALID_STATE',
        `task ${taskId} is ${status}: known failures are accepted while it waits for hypotheses or while a partial fix is under review`,
      );
    }
    const known = (task.knownFailures as string[] | null) ?? [];
    const failures = await checkpointFailures(tx, taskId, known);
    const offer = new Set(failures.offer);
    const refused = ids.find((id) => !offer.has(id));
    if (refused !== undefined) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `${JSON.stringify(refused)} cannot be accepted as a known failure: only a test that failed at the baseline and still fails at the newest checkpoint can (${offer.size === 0 ? 'none does' : `these do: ${[...offer].join(', ')}`})`,
      );
    }
    const added = [...new Set(ids)];
    const knownFailures = [...known, ...added];
    const stillFailing = ((task.stillFailing as string[] | null) ?? []).filter(
      (id) => !added.includes(id),
    );
    // Waiting for a fix of tests that are known failures now is waiting for nothing: the
    // checkpoint goes to review (complete), as if its owner had asked.
    const nothingLeft = failures.left.every((id) => added.includes(id));
    const reviewNow = status === 'awaiting_hypotheses' && nothingLeft;
    await tx.task.update({
      where: { id: taskId },
      data: {
        knownFailures: json(knownFailures),
        ...(reviewNow ? { reviewNowRequestedBy: by } : {}),
        ...(partialReview
          ? { stillFailing: json(stillFailing), reviewPartial: stillFailing.length > 0 }
          : {}),
      },
    });
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: 'task.known_failures',
      target: taskId,
      details: { added },
    });
    await emit({ type: 'task.known_failures', by, added, knownFailures });
    return reviewNow;
  });
  if (wake) await deps.scheduler.schedule(taskId);
  return getTask(deps, { taskId, actor });
}
