import { lstat, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { AppError } from '../../errors/app-error';
import { git, gitText } from './git';
import { withRepoLock } from './repo-lock';
import { ensureTopDir } from '../fs/top-dir';
import { handToSandbox, sandboxIdentity } from '../sandbox';
import { moveToTrash } from './worktree-trash';
import { diffCommits, diffWorkTree } from './worktree-diff';
import type { SourceRepo } from './source-repo';
import {
  assertCommitId,
  assertWorkspaceId,
  taskRef,
  worktreePath,
  type WorkspaceLayout,
} from './workspace-layout';

/** Who checkpoints are committed as (the loop's winners and promoted runners-up alike). */
export const checkpointIdentity = {
  GIT_AUTHOR_NAME: 'Shadowbox',
  GIT_AUTHOR_EMAIL: 'checkpoint@shadowbox.invalid',
  GIT_COMMITTER_NAME: 'Shadowbox',
  GIT_COMMITTER_EMAIL: 'checkpoint@shadowbox.invalid',
};

// eslint-disable-next-line no-control-regex
const controlRun = /[\u0000-\u001f\u007f]+/g;
export const cleanLabel = (label: string): string =>
  label.replace(controlRun, ' ').trim().slice(0, 200) || 'checkpoint';

/**
 * A task's own checkout of its source: a `git worktree` sharing the source's object store, at a
 * stable path. Host-side git talks to it only through the per-worktree admin dir inside the
 * server-owned repository; the `.git` file in the worktree (which a task could rewrite) is never read.
 */
export class TaskWorktree {
  private constructor(
    readonly taskId: string,
    readonly path: string,
    private readonly source: SourceRepo,
    private readonly adminDir: string,
    private readonly layout: WorkspaceLayout,
  ) {}

  static async create(options: {
    readonly layout: WorkspaceLayout;
    readonly source: SourceRepo;
    readonly taskId: string;
    readonly commit: string;
  }): Promise<TaskWorktree> {
    const { layout, source, taskId, commit } = options;
    assertWorkspaceId('task', taskId);
    assertCommitId(commit);
    const path = worktreePath(layout, taskId);
    if (
      await lstat(path).then(
        () => true,
        () => false,
      )
    ) {
      throw new AppError('CONFLICT', `a worktree for task ${taskId} already exists`);
    }
    const adminDir = join(source.gitDir, 'worktrees', basename(path));
    // Each checkout in a block group of its own, away from the files of removed ones (top-dir.ts).
    await ensureTopDir(layout.worktreesDir);
    await withRepoLock(source.gitDir, async () => {
      await git({
        gitDir: source.gitDir,
        args: ['worktree', 'add', '--quiet', '--detach', path, commit],
      });
      await git({ gitDir: source.gitDir, args: ['update-ref', taskRef(taskId), commit] });
    });
    const recorded = (await readFile(join(adminDir, 'gitdir'), 'utf8')).trim();
    if (recorded !== join(path, '.git')) {
      throw new AppError('INTERNAL', `worktree admin dir mismatch for task ${taskId}`);
    }
    const worktree = new TaskWorktree(taskId, path, source, adminDir, layout);
    await worktree.handOver();
    return worktree;
  }

  /** Re-attaches to an existing worktree (e.g. after a restart), trusting only server-owned files. */
  static async open(options: {
    readonly layout: WorkspaceLayout;
    readonly source: SourceRepo;
    readonly taskId: string;
  }): Promise<TaskWorktree> {
    assertWorkspaceId('task', options.taskId);
    const path = worktreePath(options.layout, options.taskId);
    const adminDir = join(options.source.gitDir, 'worktrees', options.taskId);
    const recorded = await readFile(join(adminDir, 'gitdir'), 'utf8').catch(() => '');
    if (recorded.trim() !== join(path, '.git')) {
      throw new AppError('NOT_FOUND', `no worktree for task ${options.taskId}`);
    }
    return new TaskWorktree(options.taskId, path, options.source, adminDir, options.layout);
  }

  private run(args: readonly string[], env?: Record<string, string>, input?: string) {
    return git({
      gitDir: this.adminDir,
      workTree: this.path,
      cwd: this.path,
      args,
      ...(env === undefined ? {} : { env }),
      ...(input === undefined ? {} : { input }),
    });
  }

  head(): Promise<string> {
    return gitText({
      gitDir: this.adminDir,
      workTree: this.path,
      args: ['rev-parse', '--verify', 'HEAD'],
    });
  }

  /**
   * Commits the worktree and returns the new commit id: everything (ignored files excepted), or
   * only `paths` (written or deleted), so build outputs of earlier runs never slip into a checkpoint.
   */
  checkpoint(label: string, paths?: readonly string[]): Promise<string> {
    return withRepoLock(this.source.gitDir, async () => {
      if (paths === undefined) await this.run(['add', '--all']);
      else if (paths.length > 0) {
        // Literal pathspecs: a hypothesis' file name is never a glob or a magic pathspec.
        await this.run(['add', '--all', '--', ...paths], { GIT_LITERAL_PATHSPECS: '1' });
      }
      await this.run(
        ['commit', '--quiet', '--no-verify', '--allow-empty', '--file=-'],
        checkpointIdentity,
        `${cleanLabel(label)}\n`,
      );
      const sha = await this.head();
      await git({ gitDir: this.source.gitDir, args: ['update-ref', taskRef(this.taskId), sha] });
      await this.handOver();
      return sha;
    });
  }

  /**
   * Makes the tracked files exactly the tree of `sha` and removes every untracked file except, by
   * default, ignored ones: those the tree's .gitignore names and the setup outputs excluded in the
   * repository's info/exclude (node_modules, .venv, target/, build/, .shadowbox/). The setup's
   * installs and the baseline's build outputs are what make every later run warm, as they would in
   * a developer's own checkout after a `git checkout`; deleting them would make each run after a
   * rollback install and build from nothing. `keepIgnored: false` removes them too (`clean -x`),
   * for a caller that wants the tree as a fresh checkout, e.g. before setting up again.
   */
  rollbackTo(sha: string, options: { readonly keepIgnored?: boolean } = {}): Promise<void> {
    assertCommitId(sha);
    const keepIgnored = options.keepIgnored ?? true;
    return withRepoLock(this.source.gitDir, async () => {
      // The reset comes first, so the clean reads the ignore rules of `sha`'s own .gitignore.
      await this.run(['reset', '--quiet', '--hard', sha]);
      if (!keepIgnored || !(await this.cleanKeepingIgnored())) await this.run(['clean', '-ffdxq']);
      await git({ gitDir: this.source.gitDir, args: ['update-ref', taskRef(this.taskId), sha] });
      await this.handOver();
    });
  }

  /**
   * Gives the checkout to the sandbox's identity after the server wrote to it (a checkout, a
   * committed winner, a reset): setup and the baseline run in it as that identity, and
   * hypotheses' overlays copy up its files with their owner, so the run may write only what is its.
   */
  private handOver(): Promise<void> {
    return handToSandbox(this.path, sandboxIdentity());
  }

  /**
   * Removes untracked files that no trusted rule ignores; false if it gave up. Only the tree's
   * tracked .gitignore files and info/exclude may keep a file: a run could write an untracked
   * .gitignore that hides itself and its siblings (a conftest.py) from this clean and every diff.
   * Each pass un-ignores every .gitignore, so the untracked ones it visits go; a directory one of
   * them ignored is visited by the next pass. A tree nested deeper than the passes allow is cleaned
   * in full instead.
   */
  private async cleanKeepingIgnored(): Promise<boolean> {
    for (let pass = 0; pass < 16; pass += 1) {
      const removed = await this.run(['clean', '-ffd', '--exclude=!.gitignore']);
      if (removed.length === 0) return true;
    }
    return false;
  }

  /**
   * The exact bytes of a unified diff from `sha` to the worktree as it is now, untracked files
   * included: staged into a throwaway index so the task's own index is untouched.
   */
  diffSince(sha: string): Promise<Buffer> {
    assertCommitId(sha);
    return withRepoLock(this.source.gitDir, () => diffWorkTree(this.adminDir, this.path, sha));
  }

  /** The exact bytes of the diff between two commits of this task (what a reviewer approves). */
  diffBetween(from: string, to: string): Promise<Buffer> {
    assertCommitId(from);
    assertCommitId(to);
    return diffCommits(this.source.gitDir, from, to);
  }

  /**
   * Removes the checkout and its registration; the commits stay in the source's object store.
   * Moves the directory into the trash rather than asking `git worktree remove`, which refuses when
   * the task has replaced the worktree's `.git` file and deletes file by file before it returns;
   * then lets git drop the registration whose directory is gone. Resolves once the path is free;
   * the files are deleted in the background (worktree-trash.ts).
   */
  remove(): Promise<void> {
    return withRepoLock(this.source.gitDir, async () => {
      await moveToTrash(this.layout, this.path);
      await git({ gitDir: this.source.gitDir, args: ['worktree', 'prune', '--expire=now'] });
      await git({ gitDir: this.source.gitDir, args: ['update-ref', '-d', taskRef(this.taskId)] });
    });
  }
}
