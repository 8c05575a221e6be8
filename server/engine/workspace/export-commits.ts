import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../errors/app-error';
import { git, gitText } from './git';
import { assertCommitId } from './workspace-layout';

/*
 * An approved change as git objects a team can take home: the checkpoints re-committed with the
 * messages and authors people should see, then written as a `git format-patch` series or a
 * `git bundle`. The task's own repository is only read: the new commits live in a throwaway bare
 * repository that borrows its objects (`objects/info/alternates`), deleted afterwards.
 */

export interface GitIdentity {
  readonly name: string;
  readonly email: string;
}

/** One commit to write: the tree of `commit` (a checkpoint), with this message and author. */
export interface ExportStep {
  readonly commit: string;
  readonly message: string;
  readonly author: GitIdentity;
  readonly authorDate: Date;
}

export interface ExportOptions {
  /** The task's source repository (server-owned, read only here). */
  readonly gitDir: string;
  /** The commit the series starts from (the task's baseline). */
  readonly baseline: string;
  readonly steps: readonly ExportStep[];
  /** Who commits the rewritten history, and when (the approval): the same bytes each time. */
  readonly committer: GitIdentity;
  readonly commitDate: Date;
}

/** The commits from `baseline` (exclusive) to `head` along first parents, oldest first. */
export async function checkpointChain(
  gitDir: string,
  baseline: string,
  head: string,
): Promise<readonly string[]> {
  assertCommitId(baseline);
  assertCommitId(head);
  const ancestor = await gitText({
    gitDir,
    args: ['rev-list', '--first-parent', '--reverse', `${baseline}..${head}`],
  });
  const chain = ancestor === '' ? [] : ancestor.split('\n');
  const first = chain[0];
  if (first === undefined) {
    throw new AppError('INVALID_STATE', `checkpoint ${head} holds no change since the baseline`);
  }
  const parent = await gitText({ gitDir, args: ['rev-parse', `${first}^1`] });
  if (parent !== baseline) {
    throw new AppError(
      'INVALID_STATE',
      `checkpoint ${head} does not descend from the baseline ${baseline} along first parents`,
    );
  }
  return chain;
}

/** `git format-patch --stdout`: one mail per step, `[PATCH n/N]` when there are several. */
export async function formatSeries(options: ExportOptions): Promise<Buffer> {
  return withExportRepo(options, async (repo, tip) =>
    git({
      gitDir: repo,
      args: [
        'format-patch',
        '--stdout',
        '--binary',
        '--full-index',
        '--no-ext-diff',
        '--no-textconv',
        '--no-color',
        '--no-signature',
        '--zero-commit',
        `${options.baseline}..${tip}`,
      ],
    }),
  );
}

/**
 * A `git bundle` holding branch `branch` at the rewritten tip. With `withBaseline: false` it
 * holds only the new commits and needs the baseline in the repository it is fetched into (a task
 * from a Git URL: the team has it); with `true`, the whole history (an uploaded archive's baseline
 * is Shadowbox's own import commit, which nobody else has).
 */
export async function createBundle(
  options: ExportOptions & { readonly branch: string; readonly withBaseline: boolean },
): Promise<Buffer> {
  return withExportRepo(options, async (repo, tip) => {
    const ref = `refs/heads/${options.branch}`;
    await git({ gitDir: repo, args: ['check-ref-format', ref] });
    await git({ gitDir: repo, args: ['update-ref', ref, tip] });
    const file = path.join(repo, 'export.bundle');
    const range = options.withBaseline ? [ref] : [ref, `^${options.baseline}`];
    await git({ gitDir: repo, args: ['bundle', 'create', file, ...range] });
    return readFile(file);
  });
}

/**
 * Runs `use` on a throwaway bare repository holding the rewritten commits (`tip` the last), which
 * borrows the source's objects; it is deleted afterwards.
 */
export async function withExportRepo<T>(
  options: ExportOptions,
  use: (repo: string, tip: string) => Promise<T>,
): Promise<T> {
  assertCommitId(options.baseline);
  if (options.steps.length === 0) throw new AppError('INVALID_STATE', 'nothing to export');
  const repo = await mkdtemp(path.join(os.tmpdir(), 'shadowbox-export-'));
  try {
    await git({ gitDir: null, args: ['init', '--quiet', '--bare', repo] });
    await writeFile(
      path.join(repo, 'objects', 'info', 'alternates'),
      `${path.join(path.resolve(options.gitDir), 'objects')}\n`,
    );
    let parent = options.baseline;
    for (const step of options.steps) {
      assertCommitId(step.commit);
      parent = await gitText({
        gitDir: repo,
        args: ['commit-tree', `${step.commit}^{tree}`, '-p', parent, '-F', '-'],
        input: step.message.endsWith('\n') ? step.message : `${step.message}\n`,
        env: {
          GIT_AUTHOR_NAME: step.author.name,
          GIT_AUTHOR_EMAIL: step.author.email,
          GIT_AUTHOR_DATE: gitDate(step.authorDate),
          GIT_COMMITTER_NAME: options.committer.name,
          GIT_COMMITTER_EMAIL: options.committer.email,
          GIT_COMMITTER_DATE: gitDate(options.commitDate),
        },
      });
    }
    return await use(repo, parent);
  } finally {
    await rm(repo, { recursive: true, force: true });
  }
}

/** Git's internal date format, in UTC: the bytes do not depend on the server's time zone. */
function gitDate(date: Date): string {
  return `${Math.floor(date.getTime() / 1000)} +0000`;
}
