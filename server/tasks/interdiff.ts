import type { Db } from '../db/client';
import { AppError } from '../errors/app-error';
import { parseDiff } from '../engine/review';
import {
  diffCommits,
  restoreSource,
  sourceGitDir,
  treeWithEdits,
  type TreeEdit,
} from '../engine/workspace';
import { checkpointAfter, interdiffFiles, type IterationCheckpoint } from './interdiff-files';
import {
  formatRef,
  type InterdiffQuery,
  type InterdiffRef,
  type InterdiffView,
} from './interdiff-refs';
import { requireTask } from './task-access';
import type { Actor } from './task-api';
import type { TaskServiceDeps } from './task-service-deps';

export type InterdiffDeps = Pick<TaskServiceDeps, 'db' | 'layout' | 'bundles'>;

/** A task as an interdiff reads it. */
interface TaskTrees {
  readonly id: string;
  readonly gitDir: string;
  readonly baselineCommit: string;
  readonly iterations: readonly (IterationCheckpoint & { readonly winner: string | null })[];
}

/** One side: the tree (or commit) to diff, and the files its own edits touch. */
interface Side {
  readonly tree: string;
  readonly touched: ReadonlySet<string>;
}

/**
 * The unified git diff between the trees two refs name (interdiff-refs.ts), with the same git
 * options as the diff under review (worktree-diff.ts), and the union of the files either side
 * touches. Comparing whole trees keeps it honest: every file either side changed since the
 * baseline is in scope, so a difference between the checkpoints two hypotheses ran on shows too.
 * Anyone who sees the task may read it; refs resolve inside the task only, so a hypothesis of
 * another task is as unknown as a missing one.
 */
export async function interdiff(
  deps: InterdiffDeps,
  { taskId, actor, a, b }: { readonly taskId: string; readonly actor: Actor } & InterdiffQuery,
): Promise<InterdiffView> {
  await requireTask(deps.db, taskId, actor, 'see');
  const task = await taskTrees(deps, taskId);
  const sideA = await resolveSide(deps, task, a);
  const sideB = await resolveSide(deps, task, b);
  const diff = (await diffCommits(task.gitDir, sideA.tree, sideB.tree)).toString('utf8');
  return {
    a: formatRef(a),
    b: formatRef(b),
    diff,
    files: interdiffFiles(sideA.touched, sideB.touched, parseDiff(diff)),
  };
}

async function taskTrees(deps: InterdiffDeps, taskId: string): Promise<TaskTrees> {
  const task = await deps.db.task.findUnique({
    where: { id: taskId },
    select: {
      status: true,
      sourceId: true,
      baselineCommit: true,
      iterations: { select: { index: true, checkpointSha: true, winner: true } },
    },
  });
  if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
  if (task.sourceId === null || task.baselineCommit === null) {
    throw new AppError(
      'INVALID_STATE',
      `task ${taskId} has no workspace yet (it is ${task.status}): there is nothing to compare`,
    );
  }
  // On a web process the workers' checkpoints are only in the bundles: fetch every one named.
  if (deps.bundles !== undefined) {
    const commits = new Set([
      task.baselineCommit,
      ...task.iterations.flatMap((it) => (it.checkpointSha === null ? [] : [it.checkpointSha])),
    ]);
    for (const commit of commits) {
      await restoreSource({
        layout: deps.layout,
        sourceId: task.sourceId,
        commit,
        bundles: deps.bundles,
      });
    }
  }
  return {
    id: taskId,
    gitDir: sourceGitDir(deps.layout, task.sourceId),
    baselineCommit: task.baselineCommit,
    iterations: task.iterations,
  };
}

async function resolveSide(deps: InterdiffDeps, task: TaskTrees, ref: InterdiffRef): Promise<Side> {
  if (ref.kind === 'checkpoint') {
    const tree = checkpointAfter(task.id, task.baselineCommit, task.iterations, ref.iteration);
    const iteration = task.iterations.find((it) => it.index === ref.iteration);
    const winner =
      iteration?.winner == null || iteration.checkpointSha === null
        ? null
        : await hypothesisRow(deps.db, task.id, {
            iteration: { index: ref.iteration },
            name: iteration.winner,
          });
    return { tree, touched: new Set(winner?.edits.map((e) => e.path) ?? []) };
  }
  const row =
    ref.kind === 'hypothesis'
      ? await hypothesisRow(deps.db, task.id, {
          iteration: { index: ref.iteration },
          name: ref.name,
        })
      : await hypothesisRow(deps.db, task.id, { id: ref.id });
  if (row === null) {
    throw new AppError(
      'NOT_FOUND',
      ref.kind === 'hypothesis'
        ? `no hypothesis ${JSON.stringify(ref.name)} in iteration ${ref.iteration} of task ${task.id}`
        : `no hypothesis ${ref.id} in task ${task.id}`,
    );
  }
  if (row.iteration === null) {
    throw new AppError(
      'INVALID_STATE',
      `hypothesis ${JSON.stringify(row.name)} has not run yet: it waits for the task's next iteration`,
    );
  }
  const base = checkpointAfter(
    task.id,
    task.baselineCommit,
    task.iterations,
    row.iteration.index - 1,
  );
  return {
    tree: await treeWithEdits(task.gitDir, base, editsOf(row)),
    touched: new Set(row.edits.map((e) => e.path)),
  };
}

type HypothesisEditsRow = NonNullable<Awaited<ReturnType<typeof hypothesisRow>>>;

function hypothesisRow(
  db: Db,
  taskId: string,
  where:
    | { readonly id: string }
    | { readonly iteration: { readonly index: number }; readonly name: string },
) {
  return db.hypothesis.findFirst({
    where: { taskId, ...where },
    select: {
      name: true,
      iteration: { select: { index: true } },
      edits: { select: { path: true, op: true, blob: { select: { bytes: true } } } },
    },
  });
}

/** A hypothesis' stored edits as tree edits (a write's bytes from its blob). */
export function editsOf(row: Pick<HypothesisEditsRow, 'edits'>): TreeEdit[] {
  return row.edits.map((edit) => ({
    path: edit.path,
    content: edit.op === 'delete' ? null : Buffer.from(edit.blob?.bytes ?? []),
  }));
}
