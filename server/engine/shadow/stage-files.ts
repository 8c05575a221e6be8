import { chmod, lstat, mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../errors/app-error';
import type { PreparedChange } from './hypothesis';
import { changeProblem, changeRefusal, workspaceEntries } from './hypothesis-paths';
import { writtenInLaterSecond } from './later-second';

/**
 * The workspace may have changed since the hypothesis was prepared: a directory in the upper layer
 * over a file of the workspace (or a file over a directory) would silently hide it in the merged
 * view, so the same rule as at preparation is checked again right before staging.
 */
async function checkStillChangeable(
  workspace: string,
  changes: readonly PreparedChange[],
): Promise<void> {
  const entries = workspaceEntries(workspace);
  for (const change of changes) {
    const kind = change.after === null ? 'delete' : 'write';
    const { problem } = await changeProblem(change.path, kind, entries);
    if (problem !== null) {
      throw new AppError('INVALID_HYPOTHESIS', changeRefusal(change.path, kind, problem), {
        details: { path: change.path },
      });
    }
  }
}

/**
 * Writes a hypothesis's new files into an overlay's upper directory, before the mount. Parent
 * directories that exist in the workspace are recreated with the workspace's mode and times: the
 * merged view shows the upper directory's attributes, and tools that look at directory mtimes
 * should see the workspace's.
 */
export async function stageIntoUpper(
  workspace: string,
  upper: string,
  changes: readonly PreparedChange[],
): Promise<void> {
  await checkStillChangeable(workspace, changes);
  for (const change of changes) {
    if (change.after === null) continue;
    const segments = change.path.split('/');
    for (let i = 1; i < segments.length; i += 1) {
      const relative = segments.slice(0, i).join('/');
      const target = path.join(upper, relative);
      const made = await mkdir(target, { recursive: false }).then(
        () => true,
        (error: unknown) => {
          if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
          throw error;
        },
      );
      if (!made) continue;
      const original = await lstat(path.join(workspace, relative)).catch(() => null);
      if (original?.isDirectory() === true) {
        await chmod(target, original.mode & 0o7777);
        await utimes(target, original.atimeMs / 1000, original.mtimeMs / 1000);
      }
    }
    const mode = change.before.exists ? change.before.mode : 0o644;
    const file = path.join(upper, change.path);
    await writeFile(file, change.after, { flag: 'wx', mode });
    await chmod(file, mode); // writeFile's mode is filtered by the umask
    const replaced = change.before.exists
      ? await lstat(path.join(workspace, change.path)).catch(() => null)
      : null;
    await writtenInLaterSecond(file, replaced);
  }
}
