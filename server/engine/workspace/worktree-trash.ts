import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { WorkspaceLayout } from './workspace-layout';

/*
 * Removing a worktree is a rename; deleting its files happens afterwards, off the caller's path.
 * A task's checkout holds its sources plus whatever setup and builds left in it (node_modules,
 * target/), and deleting tens of thousands of files takes seconds on these disks while the rename
 * takes a millisecond. The renamed directory is out of every path a task, a worktree listing or
 * git knows, so nothing can use it again; a crash before its deletion ends leaves it in the trash,
 * which the start-up sweep (pruneStaleWorktrees) empties before anything else runs. Only checkouts
 * go there: the commits stay in the source's object store.
 */

const pending = new Set<Promise<void>>();

/**
 * Moves `dir` into the trash and starts deleting it; resolves once it is gone from its path.
 * Falls back to deleting in place when the rename cannot be made (a data directory whose trash is
 * on another filesystem). A missing `dir` is not an error.
 */
export async function moveToTrash(layout: WorkspaceLayout, dir: string): Promise<void> {
  await mkdir(layout.trashDir, { recursive: true });
  const trashed = join(layout.trashDir, `${basename(dir)}-${randomUUID()}`);
  try {
    await rename(dir, trashed);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code !== 'EXDEV') throw error;
    await rm(dir, { recursive: true, force: true });
    return;
  }
  const removal: Promise<void> = rm(trashed, { recursive: true, force: true })
    .catch(() => undefined) // left for the next start-up's sweep
    .finally(() => pending.delete(removal));
  pending.add(removal);
}

/** Waits for every deletion this process started so far (tests, benchmarks, an orderly exit). */
export async function trashEmptied(): Promise<void> {
  await Promise.all([...pending]);
}

/**
 * Deletes everything in the trash: what a crashed process left half-deleted, and what a live one
 * is still deleting (both delete the same files, which `force` makes harmless).
 */
export async function sweepTrash(layout: WorkspaceLayout): Promise<void> {
  const entries = await readdir(layout.trashDir).catch(() => [] as string[]);
  for (const entry of entries) {
    await rm(join(layout.trashDir, entry), { recursive: true, force: true, maxRetries: 3 });
  }
}
