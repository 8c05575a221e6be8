import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';

/** What the run's trees hold on disk: bytes and inodes. */
export interface TreeUsage {
  readonly bytes: number;
  readonly inodes: number;
}

/**
 * Settled trees of up to this many entries are measured in this process; larger ones by GNU du. A
 * `du` spawn costs ~10 ms of CPU whatever the tree, and a run's last measurement (most uppers hold
 * a few files) sits between the run's exit and its verdict.
 */
const inProcessEntries = 500;

const duEnv = { LC_ALL: 'C', PATH: process.env.PATH ?? '/usr/bin:/bin' };

/**
 * Bytes (allocated blocks, so sparse files count as written) and inodes (files, directories,
 * links, each counted once: empty files occupy no blocks, so only their count stops a run from
 * spending the host's inodes) of the trees, as `du -s -c -x` counts them. By GNU du, which walks
 * with openat and never follows a link, so a run still writing to the trees cannot steer it.
 */
export async function treeUsage(dirs: readonly string[]): Promise<TreeUsage> {
  // The second walk finds the first one's directory entries cached.
  const [bytes, inodes] = await Promise.all([duTotal(['-B1'], dirs), duTotal(['--inodes'], dirs)]);
  return { bytes, inodes };
}

/**
 * `treeUsage` of trees nothing writes to any more (their run has exited): small ones walked in
 * this process, by path. Never for a tree a running sandbox can change: it could swap a directory
 * for a link between the walk's look at it and its listing, and steer the walk out of the tree.
 */
export async function settledTreeUsage(dirs: readonly string[]): Promise<TreeUsage> {
  return (await walkSmallTrees(dirs)) ?? (await treeUsage(dirs));
}

/**
 * The trees walked here, as du walks them: lstat (links are not followed), each inode counted
 * once, not crossing into other file systems. Null, for du to measure, when the trees hold more
 * than `inProcessEntries` entries or anything goes wrong on the way (a path too long for one
 * call, an unreadable directory): du walks with openat and reports what it can.
 */
async function walkSmallTrees(dirs: readonly string[]): Promise<TreeUsage | null> {
  const seen = new Set<string>();
  let bytes = 0;
  let entries = 0;
  try {
    for (const dir of dirs) {
      const top = await lstat(dir);
      const pending: string[] = [dir];
      const count = (stats: { dev: number; ino: number; blocks: number }): void => {
        const key = `${stats.dev}:${stats.ino}`;
        if (seen.has(key)) return;
        seen.add(key);
        bytes += stats.blocks * 512;
      };
      count(top);
      if (!top.isDirectory()) continue;
      for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
        const names = await readdir(next);
        entries += names.length;
        if (entries > inProcessEntries) return null;
        for (const name of names) {
          const child = path.join(next, name);
          const stats = await lstat(child).catch((error: unknown) => {
            // Deleted by the run since it was listed: du skips it too.
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
            throw error;
          });
          if (stats === null) continue;
          // -x: a mount point inside the tree is neither counted nor entered.
          if (stats.dev !== top.dev) continue;
          count(stats);
          if (stats.isDirectory()) pending.push(child);
        }
      }
    }
  } catch {
    return null;
  }
  return { bytes, inodes: seen.size };
}

/** The total GNU du prints for the trees, in the unit its `flags` choose. */
async function duTotal(flags: readonly string[], dirs: readonly string[]): Promise<number> {
  const result = await execa('du', ['-s', '-c', '-x', ...flags, '--', ...dirs], {
    reject: false,
    extendEnv: false,
    env: duEnv,
    stdin: 'ignore',
    stderr: 'ignore',
  });
  // Files that vanish during the walk make du complain and exit 1; its total still stands.
  const total = /^(\d+)\ttotal$/m.exec(result.stdout);
  if (total?.[1] === undefined) {
    throw new Error(`du could not measure ${dirs.join(', ')}: exit ${String(result.exitCode)}`);
  }
  return Number(total[1]);
}
