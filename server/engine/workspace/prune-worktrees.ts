import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { git, gitText } from './git';
import { withRepoLock } from './repo-lock';
import { sweepTrash } from './worktree-trash';
import { taskRef, type WorkspaceLayout } from './workspace-layout';

/**
 * Start-up cleanup after a crash: removes every worktree whose task is not in `keep` (checkout,
 * registration and task ref), prunes registrations whose directory vanished, and deletes
 * directories under the worktrees folder that no source knows, half-built source scratch
 * directories, and the trash of removed worktrees whose deletion a crash cut short. Returns the
 * removed task ids.
 */
export async function pruneStaleWorktrees(
  layout: WorkspaceLayout,
  keep: ReadonlySet<string>,
): Promise<string[]> {
  await sweepTrash(layout);
  const removed: string[] = [];
  const registered = new Set<string>();
  const sources = await readdir(layout.sourcesDir).catch(() => [] as string[]);
  for (const name of sources.filter((entry) => entry.endsWith('.git') && !entry.startsWith('.'))) {
    const gitDir = join(layout.sourcesDir, name);
    await withRepoLock(gitDir, async () => {
      const listing = await gitText({ gitDir, args: ['worktree', 'list', '--porcelain'] });
      const stale: string[] = [];
      for (const line of listing.split('\n')) {
        if (!line.startsWith('worktree ')) continue;
        const path = line.slice('worktree '.length);
        if (dirname(path) !== layout.worktreesDir) continue;
        const taskId = basename(path);
        if (keep.has(taskId)) registered.add(taskId);
        else stale.push(taskId);
      }
      // Delete checkouts ourselves (a task may have replaced its `.git` file), then let git drop
      // every registration whose directory is gone.
      for (const taskId of stale) {
        await rm(join(layout.worktreesDir, taskId), { recursive: true, force: true });
      }
      await git({ gitDir, args: ['worktree', 'prune', '--expire=now'] });
      for (const taskId of stale) {
        await git({ gitDir, args: ['update-ref', '-d', taskRef(taskId)] });
        removed.push(taskId);
      }
    });
  }
  // Half-built sources from an intake that crashed (`.<id>.tmp-*`, see makeScratch).
  for (const name of sources.filter((entry) => entry.startsWith('.') && entry.includes('.tmp-'))) {
    await rm(join(layout.sourcesDir, name), { recursive: true, force: true });
  }
  const directories = await readdir(layout.worktreesDir).catch(() => [] as string[]);
  for (const name of directories) {
    if (registered.has(name)) continue;
    await rm(join(layout.worktreesDir, name), { recursive: true, force: true });
    if (!removed.includes(name)) removed.push(name);
  }
  return removed;
}
