import { randomBytes } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { LoopWorkspace } from '../../engine/loop';
import { discardEvents } from '../../engine/ports';
import { initBare, sourceGitDir } from '../../engine/workspace';
import { AppError } from '../../errors/app-error';
import type { MiningEngine } from './mining-engine';
import { miningTask } from './mining-task';
import { mineGit, mineGitText } from './mine-git';

export type MineSource =
  { readonly kind: 'repo'; readonly path: string } | { readonly kind: 'git'; readonly url: string };

export interface MiningCheckout {
  readonly taskId: string;
  readonly sourceId: string;
  /** The miner's private repository: every commit of the source's HEAD history. */
  readonly gitDir: string;
  readonly head: string;
  /** A worktree of that repository, at `head` until moved. */
  readonly workspace: LoopWorkspace;
}

const minedBranch = 'refs/heads/mined';

/**
 * Refuses a path that is not a git repository with a commit at HEAD, naming it; its absolute
 * path otherwise. Reads it as a remote (`ls-remote`): its config, hooks and fsmonitor do nothing.
 */
export async function checkLocalRepo(repo: string): Promise<string> {
  const absolute = path.resolve(repo);
  const info = await stat(absolute).catch(() => null);
  if (info?.isDirectory() !== true) {
    throw new AppError('INVALID_ARGUMENT', `--repo '${repo}' is not a directory`);
  }
  const head = await mineGitText(null, ['ls-remote', '--', absolute, 'HEAD'], {
    localTransport: true,
  }).catch(() => null);
  if (head === null) {
    throw new AppError('INVALID_ARGUMENT', `--repo '${repo}' is not a git repository`);
  }
  if (head.trim() === '') {
    throw new AppError('INVALID_ARGUMENT', `--repo '${repo}' has no commit at HEAD`);
  }
  return absolute;
}

/**
 * A local repository copied into a new server-owned bare repository (the engine's, attributes
 * neutralised) over git's local transport: its objects are copied, never hard-linked, so nothing
 * the runs do reaches the user's repository, and its hooks and config are never used.
 */
async function copyLocal(repo: string, gitDir: string): Promise<string> {
  const absolute = await checkLocalRepo(repo);
  await initBare(gitDir);
  await mineGit(
    gitDir,
    [
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      '--',
      absolute,
      `+HEAD:${minedBranch}`,
    ],
    { localTransport: true },
  );
  await mineGit(gitDir, ['symbolic-ref', 'HEAD', minedBranch]);
  return (await mineGitText(gitDir, ['rev-parse', '--verify', `${minedBranch}^{commit}`])).trim();
}

/**
 * The source in the miner's own repository and a worktree of it, as a task's would be: a Git URL
 * goes through the intake policy (the engine's clone: https only, pinned address, tree checked);
 * a local path is copied.
 */
export async function checkOut(engine: MiningEngine, source: MineSource): Promise<MiningCheckout> {
  const suffix = randomBytes(6).toString('hex');
  const taskId = `eval-build-${suffix}`;
  await mkdir(engine.layout.sourcesDir, { recursive: true });
  if (source.kind === 'repo') {
    const sourceId = `eval-repo-${suffix}`;
    const gitDir = sourceGitDir(engine.layout, sourceId);
    const head = await copyLocal(source.path, gitDir);
    const task = miningTask({
      id: taskId,
      source: { kind: 'archive', name: path.basename(source.path) },
      sourceId,
      commit: head,
      testCommand: ['true'],
    });
    const prepared = await engine.workspaces.prepare(task, discardEvents);
    if (!prepared.ok) throw new AppError('INTERNAL', `${prepared.code}: ${prepared.message}`);
    return { taskId, sourceId, gitDir, head, workspace: prepared.workspace };
  }
  const task = miningTask({
    id: taskId,
    source: { kind: 'git', url: source.url, ref: null },
    sourceId: null,
    commit: null,
    testCommand: ['true'],
  });
  const prepared = await engine.workspaces.prepare(task, discardEvents);
  if (!prepared.ok) {
    throw new AppError('INVALID_ARGUMENT', `--git refused: ${prepared.code}: ${prepared.message}`);
  }
  return {
    taskId,
    sourceId: prepared.sourceId,
    gitDir: sourceGitDir(engine.layout, prepared.sourceId),
    head: prepared.baselineCommit,
    workspace: prepared.workspace,
  };
}
