import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Everything observable about a tree: each entry's type, mode, size, mtime and content. Two equal
 * snapshots mean the tree was not touched, byte for byte and mtime for mtime.
 */
export async function snapshotTree(root: string, skip: (relative: string) => boolean = () => false): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(dir: string): Promise<void> {
    for (const name of (await readdir(dir)).sort()) {
      const full = path.join(dir, name);
      const relative = path.relative(root, full);
      if (skip(relative)) continue;
      const stats = await lstat(full);
      const head = `${stats.mode.toString(8)} ${stats.mtimeMs}`;
      if (stats.isDirectory()) {
        out[`${relative}/`] = head;
        await walk(full);
      } else if (stats.isSymbolicLink()) {
        out[relative] = `${head} -> ${await readlink(full)}`;
      } else {
        out[relative] = `${head} ${(await readFile(full)).toString('base64')}`;
      }
    }
  }
  const rootStats = await lstat(root);
  out['./'] = `${rootStats.mode.toString(8)} ${rootStats.mtimeMs}`;
  await walk(root);
  return out;
}
