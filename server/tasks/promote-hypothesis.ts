import { recordAudit } from '../audit/audit-log';
import { actorLabel, auditedAs } from '../auth/actor';
import { AppError } from '../errors/app-error';
import { remainingFailures, reviewMessage } from '../engine/loop';
import { buildReviewArtifact } from '../engine/review';
import {
  commitTree,
  diffCommits,
  keepBundle,
  restoreSource,
  sourceGitDir,
  treeWithEdits,
} from '../engine/workspace';
import { getTask } from './get-task';
import { editsOf } from './interdiff';
import { checkpointAfter } from './interdiff-files';
import { writeReview } from './prisma-task-store';
import { parsePromoteInput } from './promote-input';
import { checkPromotableHypothesis, checkPromotableTask } from './promote-rules';
import { requireTask } from './task-access';
import type { Actor, TaskView } from './task-api';
import { runSummaryOf, statusOf } from './task-rows';
import type { TaskServiceDeps } from './task-service-deps';
import { createWorkspaceCleaner } from './workspace-cleaner';

export type PromoteDeps = Pick<TaskServiceDeps, 'db' | 'store' | 'layout' | 'bundles' | 'clock'>;

/**
 * A reviewer puts a passing runner-up of the newest iteration up for review in the ranked
 * winner's place, for a reason (promote-rules.ts says which and when). Its tree is committed as
 * the iteration's checkpoint the way the loop commits a winner (on the checkpoint it ran on, as
 * Shadowbox), and the diff from the baseline is built, hashed and stored as the loop's review
 * does (`writeReview`): a new SHA-256 that approvals bind to, the old approval cleared, threads
 * moved. The iteration keeps who promoted it, why, and the winner passed over; the audit log
 * and the task's events (`review.promoted`, then `review.ready`) say so. The git work is done
 * first, outside the transaction; the transaction then checks the task is still as it was read.
 */
export async function promoteHypothesis(
  deps: PromoteDeps,
  {
    taskId,
    actor,
    input,
  }: { readonly taskId: string; readonly actor: Actor; readonly input: unknown },
): Promise<TaskView> {
  const { hypothesis: name, reason } = parsePromoteInput(input);
  await requireTask(deps.db, taskId, actor, 'review');
  const plan = await planPromotion(deps, taskId, name);
  const by = actorLabel(actor);

  const gitDir = sourceGitDir(deps.layout, plan.sourceId);
  if (deps.bundles !== undefined) {
    await restoreSource({
      layout: deps.layout,
      sourceId: plan.sourceId,
      commit: plan.base,
      bundles: deps.bundles,
    });
  }
  const tree = await treeWithEdits(gitDir, plan.base, plan.edits);
  const commit = await commitTree(
    gitDir,
    tree,
    plan.base,
    `Iteration ${plan.iteration}: ${name} (promoted over ${plan.passedOver} by ${by})`,
  );
  // Every checkpoint the database names is kept beyond this disk (git-workspaces.ts).
  if (deps.bundles !== undefined) {
    await keepBundle({
      gitDir,
      sourceId: plan.sourceId,
      commit,
      kind: 'checkpoint',
      bundles: deps.bundles,
    });
  }
  const task = await deps.store.load(taskId);
  const left = remainingFailures(plan.run, task.knownFailures);
  const artifact = buildReviewArtifact({
    diff: await diffCommits(gitDir, plan.baselineCommit, commit),
    ...reviewMessage(task, taskId, left),
    date: deps.clock.now(),
    commit,
  });

  await deps.store.transact(taskId, async (tx, emit) => {
    await requireTask(tx, taskId, actor, 'review');
    const now = await tx.task.findUnique({
      where: { id: taskId },
      select: { status: true, checkpointSha: true, diffSha256: true },
    });
    if (now === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
    checkPromotableTask({ id: taskId, status: statusOf(now.status) });
    if (now.checkpointSha !== plan.checkpointSha || now.diffSha256 !== plan.diffSha256) {
      throw new AppError(
        'CONFLICT',
        `task ${taskId} changed while ${name} was being promoted: reload it and try again`,
      );
    }
    await tx.hypothesis.update({
      where: { iterationId_name: { iterationId: plan.iterationId, name: plan.passedOver } },
      data: { verdict: 'passed' },
    });
    await tx.hypothesis.update({
      where: { iterationId_name: { iterationId: plan.iterationId, name } },
      data: { verdict: 'winner' },
    });
    await tx.iteration.update({
      where: { id: plan.iterationId },
      data: {
        winner: name,
        checkpointSha: commit,
        promotedBy: by,
        promotionReason: reason,
        passedOver: plan.passedOver,
      },
    });
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: 'task.promote',
      target: taskId,
      details: {
        iteration: plan.iteration,
        hypothesis: name,
        passedOver: plan.passedOver,
        reason,
        checkpointSha: commit,
        diffSha256: artifact.sha256,
        replacedDiffSha256: plan.diffSha256,
      },
    });
    await emit(
      {
        type: 'review.promoted',
        iteration: plan.iteration,
        hypothesis: name,
        passedOver: plan.passedOver,
        reason,
        by,
        checkpointSha: commit,
      },
      { checkpointSha: commit },
    );
    await writeReview(tx, emit, taskId, artifact, {
      partial: left.count > 0,
      stillFailing: left.ids,
    });
  });
  // The worktree here follows (a worker elsewhere moves its own when it next steps the task).
  await createWorkspaceCleaner(deps.layout).rollback(await deps.store.load(taskId), commit);
  return getTask(deps, { taskId, actor });
}

/** What the promotion needs, read and checked before any git work. */
async function planPromotion(deps: Pick<PromoteDeps, 'db'>, taskId: string, name: string) {
  const task = await deps.db.task.findUnique({
    where: { id: taskId },
    select: {
      status: true,
      sourceId: true,
      baselineCommit: true,
      checkpointSha: true,
      diffSha256: true,
      iterations: {
        select: { id: true, index: true, status: true, winner: true, checkpointSha: true },
      },
    },
  });
  if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
  checkPromotableTask({ id: taskId, status: statusOf(task.status) });
  if (task.sourceId === null || task.baselineCommit === null) {
    throw new AppError('INTERNAL', `task ${taskId} is under review without a workspace`);
  }
  const newest =
    task.iterations.filter((it) => it.status === 'done').sort((x, y) => y.index - x.index)[0] ??
    null;
  const row =
    newest === null
      ? null
      : await deps.db.hypothesis.findFirst({
          where: { taskId, iterationId: newest.id, name },
          select: {
            name: true,
            verdict: true,
            error: true,
            edits: { select: { path: true, op: true, blob: { select: { bytes: true } } } },
            runs: { orderBy: { createdAt: 'desc' }, take: 1 },
          },
        });
  const run = row?.runs[0];
  const passedOver = checkPromotableHypothesis(
    taskId,
    newest,
    name,
    row === null
      ? null
      : {
          name: row.name,
          verdict: row.verdict,
          error: row.error ?? run?.error ?? null,
          disqualified: run?.disqualified ?? null,
        },
  );
  if (newest === null || row === null || run === undefined) {
    throw new AppError('INTERNAL', `hypothesis ${name} passed without a run`);
  }
  return {
    sourceId: task.sourceId,
    baselineCommit: task.baselineCommit,
    checkpointSha: task.checkpointSha,
    diffSha256: task.diffSha256,
    iteration: newest.index,
    iterationId: newest.id,
    // The checkpoint the iteration's hypotheses ran on: the promoted tree is built on it.
    base: checkpointAfter(taskId, task.baselineCommit, task.iterations, newest.index - 1),
    passedOver,
    edits: editsOf(row),
    run: runSummaryOf(run),
  };
}
