import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../errors/app-error';
import { git, gitText, runGit } from '../workspace/git';
import { initBare } from '../workspace/source-repo';
import { assertCommitId } from '../workspace/workspace-layout';

/*
 * The git side of an integration batch, all in the object store (no worktree is touched): the
 * members replayed onto one base, every pair preflighted with `git merge-tree --write-tree`, and
 * the members applied in order as one commit each. The batch's repository borrows the members'
 * objects (`objects/info/alternates`) and holds only the commits the batch writes.
 */

/** Who writes the batch's commits, and when: fixed, so the same batch gives the same commits. */
export interface BatchCommitter {
  readonly name: string;
  readonly email: string;
  readonly date: Date;
}

/** A file two changes both touch, and the regions git could not merge. */
export interface ConflictFile {
  readonly path: string;
  /** The conflicting regions as git marks them, or git's message where it marks none. */
  readonly hunks: readonly string[];
}

export type MergeOutcome =
  | { readonly clean: true; readonly tree: string }
  | { readonly clean: false; readonly files: readonly ConflictFile[] };

/** Hunks kept per file and bytes kept per hunk: a preflight shows where, not whole files. */
const maxHunks = 8;
const maxHunkBytes = 4096;

/** Creates the batch's bare repository (once), borrowing the objects of `borrow` (git dirs). */
export async function openBatchRepo(gitDir: string, borrow: readonly string[]): Promise<void> {
  const exists = await stat(path.join(gitDir, 'objects')).catch(() => null);
  if (exists === null) {
    await mkdir(path.dirname(gitDir), { recursive: true });
    await initBare(gitDir);
  }
  const alternates = borrow.map((dir) => path.join(dir, 'objects')).join('\n');
  await writeFile(path.join(gitDir, 'objects', 'info', 'alternates'), `${alternates}\n`);
}

/** Whether `ancestor` is `commit` or one of its ancestors. */
export async function isAncestor(
  gitDir: string,
  ancestor: string,
  commit: string,
): Promise<boolean> {
  assertCommitId(ancestor);
  assertCommitId(commit);
  const result = await runGit({ gitDir, args: ['merge-base', '--is-ancestor', ancestor, commit] });
  if (result.exitCode === 0) return true;
  if (result.exitCode === 1) return false;
  throw new AppError('INTERNAL', `git merge-base failed: ${result.stderr.trim()}`);
}

/**
 * Merges two commits' trees (their merge base found by git: the batch's base, as every commit
 * merged here descends from it by single parents). Conflicts are returned, not thrown.
 */
export async function mergeCommits(gitDir: string, a: string, b: string): Promise<MergeOutcome> {
  assertCommitId(a);
  assertCommitId(b);
  const result = await runGit({
    gitDir,
    args: ['merge-tree', '--write-tree', '--name-only', '-z', '--no-messages', a, b],
  });
  const fields = result.stdout.toString('utf8').split('\0');
  const tree = fields[0] ?? '';
  if (result.exitCode === 0) return { clean: true, tree: tree.trim() };
  if (result.exitCode !== 1 || !/^[0-9a-f]{40,64}$/.test(tree)) {
    throw new AppError('INTERNAL', `git merge-tree failed: ${result.stderr.trim()}`);
  }
  const paths: string[] = [];
  for (const field of fields.slice(1)) {
    if (field === '') break;
    paths.push(field);
  }
  const files = await Promise.all(
    paths.map(async (file) => ({ path: file, hunks: await conflictHunks(gitDir, tree, file) })),
  );
  return { clean: false, files };
}

/** The regions git marked in the merged file; a conflict with no markers (a deletion) says so. */
async function conflictHunks(gitDir: string, tree: string, file: string): Promise<string[]> {
  const blob = await runGit({ gitDir, args: ['cat-file', 'blob', `${tree}:${file}`] });
  if (blob.exitCode !== 0) return ['one side changed the file, the other deleted or renamed it'];
  const hunks: string[] = [];
  let current: string[] | null = null;
  for (const line of blob.stdout.toString('utf8').split('\n')) {
    if (current === null && line.startsWith('<<<<<<< ')) current = [];
    if (current === null) continue;
    current.push(line);
    if (line.startsWith('>>>>>>> ')) {
      hunks.push(capped(current.join('\n')));
      current = null;
      if (hunks.length === maxHunks) break;
    }
  }
  return hunks.length > 0 ? hunks : ['the two changes differ in how they treat the file'];
}

const capped = (text: string): string =>
  Buffer.byteLength(text) <= maxHunkBytes
    ? text
    : `${Buffer.from(text).subarray(0, maxHunkBytes).toString('utf8')}\n… (cut)`;

/** Writes a commit of `tree` on `parent`. */
export async function commitTree(
  gitDir: string,
  tree: string,
  parent: string,
  message: string,
  committer: BatchCommitter,
): Promise<string> {
  const date = `${Math.floor(committer.date.getTime() / 1000)} +0000`;
  return gitText({
    gitDir,
    args: ['commit-tree', tree, '-p', parent, '-F', '-'],
    input: message.endsWith('\n') ? message : `${message}\n`,
    env: {
      GIT_AUTHOR_NAME: committer.name,
      GIT_AUTHOR_EMAIL: committer.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: committer.name,
      GIT_COMMITTER_EMAIL: committer.email,
      GIT_COMMITTER_DATE: date,
    },
  });
}

/**
 * A member's change on the batch's base: `head` itself when it was made there, else its changes
 * (since its own baseline, an ancestor of `onto`) replayed onto `onto` as one commit.
 */
export async function replayOnto(
  gitDir: string,
  member: { readonly baseline: string; readonly head: string; readonly message: string },
  onto: string,
  committer: BatchCommitter,
): Promise<{ readonly commit: string } | { readonly files: readonly ConflictFile[] }> {
  if (member.baseline === onto) return { commit: member.head };
  const merged = await mergeCommits(gitDir, onto, member.head);
  if (!merged.clean) return { files: merged.files };
  return { commit: await commitTree(gitDir, merged.tree, onto, member.message, committer) };
}

/**
 * Applies changes (each a commit on `base`) in order, one commit each on the previous: the last
 * holds them all. A pair the preflight passed can still conflict three ways: then the index of
 * the change that did not apply, and where.
 */
export async function applyInOrder(
  gitDir: string,
  base: string,
  changes: readonly { readonly commit: string; readonly message: string }[],
  committer: BatchCommitter,
): Promise<
  | { readonly commits: readonly string[] }
  | { readonly failedAt: number; readonly files: readonly ConflictFile[] }
> {
  const commits: string[] = [];
  let tip = base;
  for (const [index, change] of changes.entries()) {
    const merged = await mergeCommits(gitDir, tip, change.commit);
    if (!merged.clean) return { failedAt: index, files: merged.files };
    tip = await commitTree(gitDir, merged.tree, tip, change.message, committer);
    commits.push(tip);
  }
  return { commits };
}

/** What makes the tree of `to` out of the tree of `from`: files to write, and files to delete. */
export interface TreeChanges {
  readonly edits: readonly { readonly path: string; readonly content: Buffer }[];
  readonly deleted: readonly string[];
}

/** The changes from `from` to `to`; a symbolic link or submodule among them is refused. */
export async function treeChanges(gitDir: string, from: string, to: string): Promise<TreeChanges> {
  assertCommitId(from);
  assertCommitId(to);
  const raw = await git({
    gitDir,
    args: ['diff-tree', '-r', '-z', '--no-renames', '--raw', from, to],
  });
  // Records: ":<old mode> <new mode> <old sha> <new sha> <status>\0<path>\0".
  const fields = raw.toString('utf8').split('\0');
  const edits: { path: string; content: Buffer }[] = [];
  const deleted: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = (fields[i] ?? '').split(' ');
    const file = fields[i + 1] ?? '';
    const newMode = meta[1] ?? '';
    const status = meta[4] ?? '';
    if (status === 'D') {
      deleted.push(file);
      continue;
    }
    if (newMode !== '100644' && newMode !== '100755') {
      throw new AppError(
        'INVALID_STATE',
        `'${file}' becomes a ${newMode === '120000' ? 'symbolic link' : 'submodule'} in the combination: a batch can only test changes to regular files`,
      );
    }
    edits.push({
      path: file,
      content: await git({ gitDir, args: ['cat-file', 'blob', meta[3] ?? ''] }),
    });
  }
  return { edits, deleted };
}

/** `git diff` of two commits, as a patch `git apply` takes (binary files included). */
export async function diffCommits(gitDir: string, from: string, to: string): Promise<Buffer> {
  assertCommitId(from);
  assertCommitId(to);
  return git({
    gitDir,
    args: [
      'diff',
      '--binary',
      '--full-index',
      '--no-ext-diff',
      '--no-textconv',
      '--no-color',
      '--no-renames',
      from,
      to,
    ],
  });
}
