import { lstat, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { AppError } from '../../errors/app-error';

export const lstatOrNull = (path: string) => lstat(path).catch(() => null);

/**
 * Whether the parents of `root/rel` are real directories (created when missing and `create`): a
 * symlinked parent, which setup code could plant, would make the host copy, delete or rewrite
 * something outside the workspace.
 */
export async function realParents(root: string, rel: string, create: boolean): Promise<boolean> {
  const parts = rel.split('/');
  for (let i = 1; i < parts.length; i += 1) {
    const parent = join(root, ...parts.slice(0, i));
    const info = await lstatOrNull(parent);
    if (info === null && create) await mkdir(parent);
    else if (info === null || !info.isDirectory()) return false;
  }
  return true;
}

/** Whether `root/rel` is a real directory or file, reached through real directories only. */
export async function realEntry(root: string, rel: string): Promise<boolean> {
  if (!(await realParents(root, rel, false))) return false;
  const info = await lstatOrNull(join(root, rel));
  return info !== null && (info.isDirectory() || info.isFile());
}

/** A copy-on-write copy where the filesystem can (btrfs, XFS), modes, times and links kept. */
export async function copyTree(from: string, to: string): Promise<void> {
  const result = await execa(
    'cp',
    ['-a', '--reflink=auto', '--no-target-directory', '--', from, to],
    {
      reject: false,
      stdin: 'ignore',
    },
  );
  if (result.failed) {
    throw new AppError(
      'INTERNAL',
      `copying ${from} failed: ${result.stderr.trim() || result.shortMessage}`,
    );
  }
}

export async function bytesOf(dir: string): Promise<number> {
  const result = await execa('du', ['-s', '-b', '--', dir], { reject: false, stdin: 'ignore' });
  return Number.parseInt(result.stdout, 10) || 0;
}
