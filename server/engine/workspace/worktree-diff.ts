import { randomUUID } from 'node:crypto';
import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './git';

// Exact bytes for review: binary patches included, full blob ids (so `git apply` can verify them),
// renames detected, and no diff driver, textconv or colour that could change what is shown.
const diffOptions = [
  '--binary',
  '--full-index',
  '--find-renames',
  '--no-ext-diff',
  '--no-textconv',
  '--no-color',
];

/**
 * The unified diff from `sha` to the work tree as it is now, untracked files included. Everything is
 * staged into a throwaway copy of the worktree's index, so the task's own index is untouched.
 */
export async function diffWorkTree(
  adminDir: string,
  workTree: string,
  sha: string,
): Promise<Buffer> {
  const index = join(adminDir, `diff-${randomUUID()}.index`);
  try {
    await copyFile(join(adminDir, 'index'), index);
    const env = { GIT_INDEX_FILE: index };
    await git({ gitDir: adminDir, workTree, cwd: workTree, env, args: ['add', '--all'] });
    return await git({
      gitDir: adminDir,
      workTree,
      cwd: workTree,
      env,
      args: ['diff', '--cached', ...diffOptions, sha],
    });
  } finally {
    await rm(index, { force: true });
  }
}
