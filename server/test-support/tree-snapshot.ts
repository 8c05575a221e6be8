import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Two snapshots of a directory, for two questions. `snapshotTreeWithTimes`: was the tree left
 * untouched, mtimes included (the shadow runner's promise)? `snapshotTreeContents`: do two trees
 * hold the same files, links and permission bits, whenever they were written (intake, worktrees)?
 */

export interface TreeWithTimesOptions {
  /** Entries to leave out, by workspace-relative path. */
  readonly skip?: (relative: string) => boolean;
  /** Compare directory mtimes too (default). Off where a run may legitimately create files. */
  readonly directoryTimes?: boolean;
  /** Compare file mtimes too (default). Off for in-place runs, which restore with a new mtime. */
  readonly fileTimes?: boolean;
}

/**
 * Everything observable about a tree: each entry's type, mode, mtime and content. Two equal
 * snapshots mean the tree was not touched, byte for byte and mtime for mtime. File times are compared
 * to the microsecond; directory times to the millisecond, because an in-place restore can only put
 * them back through utimes(2) from a double, which is exact to about a quarter of a microsecond.
 */
export async function snapshotTreeWithTimes(
  root: string,
  options: TreeWithTimesOptions = {},
): Promise<Record<string, string>> {
  const skip = options.skip ?? (() => false);
  const time = (ms: number): string => (Math.round(ms * 1000) / 1000).toFixed(3);
  const dirEntry = (mode: number, mtimeMs: number): string =>
    options.directoryTimes === false
      ? mode.toString(8)
      : `${mode.toString(8)} ${Math.round(mtimeMs).toString()}`;
  const out: Record<string, string> = {};
  async function walk(dir: string): Promise<void> {
    for (const name of (await readdir(dir)).sort()) {
      const full = path.join(dir, name);
      const relative = path.relative(root, full);
      if (skip(relative)) continue;
      const stats = await lstat(full);
      const head =
        options.fileTimes === false
          ? stats.mode.toString(8)
          : `${stats.mode.toString(8)} ${time(stats.mtimeMs)}`;
      if (stats.isDirectory()) {
        out[`${relative}/`] = dirEntry(stats.mode, stats.mtimeMs);
        await walk(full);
      } else if (stats.isSymbolicLink()) {
        out[relative] = `${head} -> ${await readlink(full)}`;
      } else {
        out[relative] = `${head} ${(await readFile(full)).toString('base64')}`;
      }
    }
  }
  const rootStats = await lstat(root);
  out['./'] = dirEntry(rootStats.mode, rootStats.mtimeMs);
  await walk(root);
  return out;
}

/**
 * path → "mode:content" (links: "link:target") map of a directory, without times, for
 * byte-identical comparisons of what two trees hold. Modes are the permission bits only.
 */
export async function snapshotTreeContents(root: string): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  async function walk(relative: string): Promise<void> {
    const entries = await readdir(path.join(root, relative), { withFileTypes: true });
    for (const entry of entries) {
      const entryPath = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const info = await lstat(path.join(root, entryPath));
      const mode = (info.mode & 0o7777).toString(8);
      if (entry.isDirectory()) {
        result.set(`${entryPath}/`, mode);
        await walk(entryPath);
      } else if (entry.isFile()) {
        result.set(
          entryPath,
          `${mode}:${(await readFile(path.join(root, entryPath))).toString('base64')}`,
        );
      } else if (entry.isSymbolicLink()) {
        result.set(entryPath, `link:${await readlink(path.join(root, entryPath))}`);
      } else {
        result.set(entryPath, 'not a regular file');
      }
    }
  }
  await walk('');
  return result;
}
