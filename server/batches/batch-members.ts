import type { Db } from '../db/client';
import { compareTests } from '../engine/shadow';
import { sourceGitDir } from '../engine/workspace';
import { AppError } from '../errors/app-error';
import { planApprovedExport, type ExportDeps } from '../tasks/export-approved';
import { runSummaryOf } from '../tasks/task-rows';
import type { RunSummary } from '../engine/loop';

/** What a batch needs of one approved member task. */
export interface MemberFacts {
  readonly taskId: string;
  readonly title: string;
  readonly sourceKind: 'git' | 'archive';
  /** Its Git URL, or its archive's name. */
  readonly sourceUrl: string;
  /**
   * Which repository it belongs to: its Git URL, or for an archive its baseline commit (a
   * function of the contents alone, so every upload of the same contents shares it).
   */
  readonly repository: string;
  readonly sourceId: string;
  readonly gitDir: string;
  /** The commit its change was made on, and its approved commit (the diff's own). */
  readonly baseline: string;
  readonly head: string;
  readonly diffSha256: string;
  readonly baselineRun: RunSummary;
  /** The tests its approved run fixed against its baseline. */
  readonly fixed: readonly string[];
}

/**
 * Loads an approved task as a batch member: refused unless it was made from a Git URL and its
 * approval stands on its current diff (the same checks as an export: STALE_DIFF otherwise).
 */
export async function memberFacts(deps: ExportDeps, taskId: string): Promise<MemberFacts> {
  const task = await deps.db.task.findUnique({
    where: { id: taskId },
    select: { title: true, sourceKind: true, sourceUrl: true, archiveName: true, sourceId: true },
  });
  if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
  if (task.sourceId === null) {
    throw new AppError('INVALID_STATE', `task ${taskId} has no repository to take its change from`);
  }
  const sourceKind = task.sourceKind === 'git' ? 'git' : 'archive';
  const plan = await planApprovedExport(deps, taskId, true);
  const head = plan.commits.steps[plan.commits.steps.length - 1]?.commit;
  if (head === undefined) {
    throw new AppError('INVALID_STATE', `task ${taskId}'s approved change holds no commit`);
  }
  const baselineRun = await latestRun(deps.db, taskId, 'baseline');
  const approvedRun = await approvedRunOf(deps.db, taskId, head);
  if (baselineRun === null)
    throw new AppError('INVALID_STATE', `task ${taskId} has no baseline run`);
  return {
    taskId,
    title: task.title,
    sourceKind,
    sourceUrl: (sourceKind === 'git' ? task.sourceUrl : task.archiveName) ?? '',
    repository:
      sourceKind === 'git' ? `git ${task.sourceUrl ?? ''}` : `archive ${plan.commits.baseline}`,
    sourceId: task.sourceId,
    gitDir: sourceGitDir(deps.layout, task.sourceId),
    baseline: plan.commits.baseline,
    head,
    diffSha256: plan.sha256,
    baselineRun,
    fixed: approvedRun === null ? [] : compareTests(baselineRun, approvedRun).fixed,
  };
}

async function latestRun(db: Db, taskId: string, kind: 'baseline'): Promise<RunSummary | null> {
  const run = await db.run.findFirst({ where: { taskId, kind }, orderBy: { createdAt: 'desc' } });
  return run === null ? null : runSummaryOf(run);
}

/** The run of the hypothesis whose win made the approved commit. */
async function approvedRunOf(db: Db, taskId: string, head: string): Promise<RunSummary | null> {
  const iteration = await db.iteration.findFirst({
    where: { taskId, checkpointSha: head },
    select: { id: true, winner: true },
  });
  if (iteration?.winner == null) return null;
  const run = await db.run.findFirst({
    where: {
      iterationId: iteration.id,
      kind: 'hypothesis',
      hypothesis: { name: iteration.winner },
    },
    orderBy: { createdAt: 'desc' },
  });
  return run === null ? null : runSummaryOf(run);
}
