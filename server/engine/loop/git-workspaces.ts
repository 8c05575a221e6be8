import { lstat, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../errors/app-error';
import type { GitUrlPolicy } from '../intake/git-url-policy';
import type { IntakeCaps } from '../intake/intake-caps';
import type { BundleStore } from '../workspace/bundle-store';
import { createSourceFromGit } from '../workspace/create-source';
import { git } from '../workspace/git';
import type { GitCredential } from '../workspace/git-credential';
import { withRepoLock } from '../workspace/repo-lock';
import { keepBundle, restoreSource } from '../workspace/source-bundles';
import { TaskWorktree } from '../workspace/task-worktree';
import { sourceGitDir, worktreePath, type WorkspaceLayout } from '../workspace/workspace-layout';
import { listTreeFiles, readTreeFile } from '../workspace/tree-files';
import type { LoopTask, LoopWorkspace, WorkspacePort, WorkspaceRestore } from './loop-ports';

export interface GitWorkspacesOptions {
  readonly layout: WorkspaceLayout;
  readonly caps?: Partial<IntakeCaps>;
  readonly gitPolicy?: GitUrlPolicy;
  /** The credential of a configured remote for a source's URL (a team's private forge), if any. */
  readonly credentialFor?: (url: string) => Promise<GitCredential | null>;
  /**
   * Where each source's baseline and every checkpoint are kept beyond this disk, so another worker
   * can rebuild the workspace; without it the workspace lives only here (one machine).
   */
  readonly bundles?: BundleStore;
}

/** The id of the bare repository a git task clones into (archives get theirs at upload). */
export const gitSourceId = (taskId: string): string => `git-${taskId}`;

/** The WorkspacePort on real git: a bare repository per source, a worktree per task. */
export function createGitWorkspaces(options: GitWorkspacesOptions): WorkspacePort {
  const { layout, bundles } = options;
  const sourceOf = (sourceId: string) => ({ id: sourceId, gitDir: sourceGitDir(layout, sourceId) });
  const restore = (sourceId: string, commit: string) =>
    bundles === undefined
      ? { created: false, applied: 0 }
      : restoreSource({ layout, sourceId, commit, bundles });
  const wrap = (sourceId: string, worktree: TaskWorktree) =>
    asLoopWorkspace(worktree, bundles === undefined ? null : { sourceId, bundles, layout });

  return {
    async prepare(task, events) {
      let sourceId = task.sourceId;
      let commit = task.baselineCommit;
      if (sourceId === null || commit === null) {
        if (task.source.kind !== 'git') {
          throw new AppError('INTERNAL', `archive task ${task.id} has no imported source`);
        }
        sourceId = gitSourceId(task.id);
        // Only reached when the database knows no source: anything there is a crashed attempt's.
        await rm(sourceGitDir(layout, sourceId), { recursive: true, force: true });
        const created = await createSourceFromGit({
          layout,
          sourceId,
          url: task.source.url,
          ...(task.source.ref === null ? {} : { ref: task.source.ref }),
          ...(options.caps === undefined ? {} : { caps: options.caps }),
          ...(options.gitPolicy === undefined ? {} : { policy: options.gitPolicy }),
          credential: (await options.credentialFor?.(task.source.url)) ?? null,
          events,
        });
        if (!created.ok)
          return { ok: false, code: created.error.code, message: created.error.message };
        commit = created.commit;
        if (bundles !== undefined) {
          await keepBundle({
            gitDir: created.source.gitDir,
            sourceId,
            commit,
            kind: 'baseline',
            bundles,
          });
        }
      } else {
        // An archive imported on another machine (the web process that took the upload).
        await restore(sourceId, commit);
      }
      // A worktree left by a crashed attempt is replaced, never trusted.
      await removeWorktree(layout, sourceOf(sourceId).gitDir, task.id);
      const worktree = await TaskWorktree.create({
        layout,
        source: sourceOf(sourceId),
        taskId: task.id,
        commit,
      });
      return { ok: true, sourceId, baselineCommit: commit, workspace: wrap(sourceId, worktree) };
    },

    repository(task: LoopTask) {
      const at = (): { gitDir: string; commit: string } => {
        if (task.sourceId === null || task.checkpointSha === null) {
          throw new AppError('INVALID_STATE', `task ${task.id} has no checkpoint yet`);
        }
        return { gitDir: sourceGitDir(layout, task.sourceId), commit: task.checkpointSha };
      };
      return {
        async listFiles() {
          const { gitDir, commit } = at();
          return (await listTreeFiles(gitDir, commit)).map((f) => f.path);
        },
        readFile(path) {
          const { gitDir, commit } = at();
          return readTreeFile(gitDir, commit, path);
        },
      };
    },

    async open(task: LoopTask) {
      if (task.sourceId === null) throw new AppError('NOT_FOUND', `task ${task.id} has no source`);
      return wrap(
        task.sourceId,
        await TaskWorktree.open({ layout, source: sourceOf(task.sourceId), taskId: task.id }),
      );
    },

    async ensure(task, { setupRan }) {
      if (task.sourceId === null || task.checkpointSha === null) {
        throw new AppError('INVALID_STATE', `task ${task.id} has no checkpoint yet`);
      }
      const source = sourceOf(task.sourceId);
      const commit = task.checkpointSha;
      const repository = await restore(source.id, commit);
      const pending = setupPendingMarker(source.gitDir, task.id);
      let worktree = await openPresent(layout, source, task.id);
      let state: WorkspaceRestore['worktree'] = 'kept';
      if (worktree === null) {
        // Marked before the worktree exists, so a crash in between still leaves it pending.
        if (setupRan) {
          await mkdir(join(pending, '..'), { recursive: true });
          await writeFile(pending, '');
        }
        await removeWorktree(layout, source.gitDir, task.id);
        worktree = await TaskWorktree.create({ layout, source, taskId: task.id, commit });
        state = 'created';
      } else if ((await worktree.head()) !== commit) {
        await worktree.rollbackTo(commit);
        state = 'reset';
      }
      const restored =
        repository.applied === 0 && state === 'kept'
          ? null
          : { repository: repository.created, bundles: repository.applied, worktree: state };
      return {
        workspace: wrap(source.id, worktree),
        restored,
        setupPending: await exists(pending),
      };
    },

    async setupRestored(task) {
      if (task.sourceId === null) return;
      await rm(setupPendingMarker(sourceGitDir(layout, task.sourceId), task.id), { force: true });
    },
  };
}

/** Server-owned (inside the bare repository), so nothing a run writes can clear it. */
const setupPendingMarker = (gitDir: string, taskId: string): string =>
  join(gitDir, 'shadowbox-setup-pending', taskId);

const exists = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false,
  );

/** The task's worktree when both its registration and its directory are on this disk. */
async function openPresent(
  layout: WorkspaceLayout,
  source: { readonly id: string; readonly gitDir: string },
  taskId: string,
): Promise<TaskWorktree | null> {
  const worktree = await TaskWorktree.open({ layout, source, taskId }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
    throw error;
  });
  if (worktree === null || !(await exists(worktree.path))) return null;
  return worktree;
}

/**
 * The loop's view of a worktree. With a bundle store, each checkpoint is stored as a bundle on
 * its parent before its id is returned, so no commit the database names lives only on this disk.
 */
function asLoopWorkspace(
  worktree: TaskWorktree,
  keep: {
    readonly sourceId: string;
    readonly bundles: BundleStore;
    readonly layout: WorkspaceLayout;
  } | null,
): LoopWorkspace {
  return {
    path: worktree.path,
    async checkpoint(label, paths) {
      const sha = await worktree.checkpoint(label, paths);
      if (keep !== null) {
        await keepBundle({
          gitDir: sourceGitDir(keep.layout, keep.sourceId),
          sourceId: keep.sourceId,
          commit: sha,
          kind: 'checkpoint',
          bundles: keep.bundles,
        });
      }
      return sha;
    },
    rollbackTo: (sha, options) => worktree.rollbackTo(sha, options),
    diffBetween: (from, to) => worktree.diffBetween(from, to),
  };
}

async function removeWorktree(
  layout: WorkspaceLayout,
  gitDir: string,
  taskId: string,
): Promise<void> {
  await withRepoLock(gitDir, async () => {
    await rm(worktreePath(layout, taskId), { recursive: true, force: true });
    // Drops the registration of the directory just removed (the task ref is rewritten on create).
    await git({ gitDir, args: ['worktree', 'prune', '--expire=now'] });
  });
}
