import { randomUUID } from 'node:crypto';
import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './git';
import { assertCommitId } from './workspace-layout';

// Exact bytes for review: binary patches included (`--binary`, or git prints "Binary files differ",
// which no tool can apply), full blob ids (so `git apply` can verify and 3-way them), and no diff
// driver, textconv or colour that could change what is shown. The remaining options pin what a
// repository's `diff.*` config could otherwise vary (prefixes, context, order), so the same two
// trees always give the same bytes.
const diffOptions = [
  '--binary',
  '--full-index',
  '--no-ext-diff',
  '--no-textconv',
  '--no-color',
  '--no-relative',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  '--unified=3',
  '--inter-hunk-context=0',
  '--diff-algorithm=myers',
  '--indent-heuristic',
  '--submodule=short',
  '--ignore-submodules=none',
  '-O/dev/null',
];

// Settings with no command-line switch: paths are C-quoted whenever they hold anything but
// printable ASCII (a bidi or control character in a file name shows as octal escapes instead of
// being rendered), and a blank context line keeps its leading space.
const diffConfig = ['core.quotePath=true', 'diff.suppressBlankEmpty=false'];

/**
 * The unified diff from `sha` to the work tree as it is now, untracked files included. Everything is
 * staged into a throwaway copy of the worktree's index, so the task's own index is untouched.
 * Renames are detected here (this diff is read by people while a task runs); mode changes come
 * from the source repository's `core.fileMode`, which `git init` probed on this filesystem.
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
      config: diffConfig,
      args: ['diff', '--cached', ...diffOptions, '--find-renames', sha],
    });
  } finally {
    await rm(index, { force: true });
  }
}

/**
 * The exact bytes of `git diff --binary --full-index <from> <to>`: what a reviewer approves and
 * what the patch download serves. Rename detection is off, so every change is a plain delete, add
 * or modify that any `git apply` (or a tool that does not know git's rename headers) can apply, and
 * the output does not depend on a similarity threshold.
 */
export async function diffCommits(gitDir: string, from: string, to: string): Promise<Buffer> {
  // Full ids only: nothing that starts with `-` (an option) or names a ref that could move.
  assertCommitId(from);
  assertCommitId(to);
  return git({
    gitDir,
    config: diffConfig,
    args: ['diff', ...diffOptions, '--no-renames', from, to, '--'],
  });
}
