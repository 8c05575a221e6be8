import { AppError } from '../errors/app-error';
import type { InterdiffFile } from './interdiff-refs';

/*
 * The pure parts of an interdiff: which commit a checkpoint ref names, and the list of files
 * the page shows beside the diff.
 */

export interface IterationCheckpoint {
  readonly index: number;
  /** The winner's commit; null when the iteration had none (or has not finished). */
  readonly checkpointSha: string | null;
}

/**
 * The task's tree after iteration `n`: the newest checkpoint committed by iteration `n` or an
 * earlier one, else the baseline (n = 0 is the baseline). This is also the tree the hypotheses of
 * iteration n + 1 ran on. NOT_FOUND for an iteration the task has not started.
 */
export function checkpointAfter(
  taskId: string,
  baselineCommit: string,
  iterations: readonly IterationCheckpoint[],
  n: number,
): string {
  const newest = iterations.reduce((max, it) => Math.max(max, it.index), 0);
  if (n > newest) {
    throw new AppError(
      'NOT_FOUND',
      `no iteration ${n} in task ${taskId} (${newest === 0 ? 'it has none yet' : `it has ${newest}`})`,
    );
  }
  const committed = iterations
    .filter((it) => it.index <= n && it.checkpointSha !== null)
    .sort((x, y) => y.index - x.index)[0];
  return committed?.checkpointSha ?? baselineCommit;
}

/** A file of the diff, as git's parser read it. */
export interface ChangedFile {
  readonly oldPath: string | null;
  readonly newPath: string | null;
  readonly status: string;
}

/**
 * The union of the files either side touches with every file the diff names, by path: a file
 * both sides touched alike is `same` (it is in neither's diff); one the diff names only because
 * the sides' checkpoints differ is listed with neither side marked.
 */
export function interdiffFiles(
  touchedA: ReadonlySet<string>,
  touchedB: ReadonlySet<string>,
  changed: readonly ChangedFile[],
): InterdiffFile[] {
  const changes = new Map<string, InterdiffFile['change']>();
  for (const file of changed) {
    const path = file.newPath ?? file.oldPath;
    if (path === null) continue;
    changes.set(
      path,
      file.status === 'added' ? 'added' : file.status === 'deleted' ? 'deleted' : 'modified',
    );
  }
  const paths = new Set([...touchedA, ...touchedB, ...changes.keys()]);
  return [...paths]
    .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))
    .map((path) => ({
      path,
      inA: touchedA.has(path),
      inB: touchedB.has(path),
      change: changes.get(path) ?? 'same',
    }));
}
