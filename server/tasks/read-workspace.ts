import { AppError } from '../errors/app-error';
import { verifySha256 } from '../engine/review';
import { pathProblem } from '../engine/shadow';
import { listTreeFiles, readTreeFile, restoreSource, sourceGitDir } from '../engine/workspace';
import type { DiffView, PatchDownload, WorkspaceFile } from './task-api';
import type { TaskServiceDeps } from './task-service-deps';
import { flagsOf } from './task-views';

/*
 * What a reviewer or an agent reads of a task's work: the stored diff under review (as text or as
 * a patch file), and the workspace's files as committed at the newest checkpoint.
 */

export type ReadWorkspaceDeps = Pick<TaskServiceDeps, 'db' | 'layout' | 'bundles'>;

export interface TaskFileOptions {
  readonly taskId: string;
  readonly path: string;
}

export async function getTaskDiff(
  deps: ReadWorkspaceDeps,
  { taskId }: { readonly taskId: string },
): Promise<DiffView> {
  const { bytes, sha256, flags } = await currentDiff(deps, taskId);
  return { diff: bytes.toString('utf8'), sha256, flags };
}

/** Re-checks the stored bytes against their hash before returning them. */
export async function getTaskPatch(
  deps: ReadWorkspaceDeps,
  { taskId }: { readonly taskId: string },
): Promise<PatchDownload> {
  const { bytes, sha256 } = await currentDiff(deps, taskId);
  return { bytes, sha256, fileName: `shadowbox-${taskId}-${sha256.slice(0, 12)}.patch` };
}

/** The workspace's regular files at the newest checkpoint (what a hypothesis edits). */
export async function listTaskFiles(
  deps: ReadWorkspaceDeps,
  { taskId }: { readonly taskId: string },
): Promise<readonly WorkspaceFile[]> {
  const { gitDir, commit } = await checkpointOf(deps, taskId);
  return listTreeFiles(gitDir, commit);
}

/** One file's text at the newest checkpoint; binary and large files are refused. */
export async function readTaskFile(
  deps: ReadWorkspaceDeps,
  { taskId, path }: TaskFileOptions,
): Promise<string> {
  const problem = pathProblem(path);
  if (problem !== null) throw new AppError('INVALID_ARGUMENT', `path '${path}' ${problem}`);
  const { gitDir, commit } = await checkpointOf(deps, taskId);
  return readTreeFile(gitDir, commit, path);
}

async function currentDiff(deps: ReadWorkspaceDeps, taskId: string) {
  const task = await deps.db.task.findUnique({
    where: { id: taskId },
    select: { diff: true, status: true },
  });
  if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
  if (task.diff === null) {
    throw new AppError(
      'NOT_FOUND',
      `task ${taskId} has no diff to review yet (it is ${task.status})`,
    );
  }
  const bytes = Buffer.from(task.diff.bytes);
  // The stored hash is what reviewers approve; bytes that no longer match it are never served.
  if (!verifySha256(bytes, task.diff.sha256)) {
    throw new AppError('INTERNAL', `the stored diff of task ${taskId} does not match its SHA-256`);
  }
  return { bytes, sha256: task.diff.sha256, flags: flagsOf(task.diff.flags) };
}

async function checkpointOf(
  deps: ReadWorkspaceDeps,
  taskId: string,
): Promise<{ gitDir: string; commit: string }> {
  const task = await deps.db.task.findUnique({
    where: { id: taskId },
    select: { sourceId: true, checkpointSha: true, status: true },
  });
  if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
  if (task.sourceId === null || task.checkpointSha === null) {
    throw new AppError(
      'INVALID_STATE',
      `task ${taskId} has no workspace yet (it is ${task.status})`,
    );
  }
  // On a web process the workers' checkpoints (and a clone's source) are only in the bundles.
  if (deps.bundles !== undefined) {
    await restoreSource({
      layout: deps.layout,
      sourceId: task.sourceId,
      commit: task.checkpointSha,
      bundles: deps.bundles,
    });
  }
  return { gitDir: sourceGitDir(deps.layout, task.sourceId), commit: task.checkpointSha };
}
