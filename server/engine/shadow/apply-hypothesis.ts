import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../errors/app-error';
import type { PreparedChange, PreparedHypothesis } from './hypothesis';
import { writtenInLaterSecond } from './later-second';

async function stillAsPrepared(workspace: string, change: PreparedChange): Promise<boolean> {
  const file = path.join(workspace, change.path);
  const stats = await lstat(file).catch(() => null);
  if (!change.before.exists) return stats === null;
  return stats?.isFile() === true && (await readFile(file)).equals(change.before.content);
}

const sideName = (file: string, tag: string): string =>
  path.join(
    path.dirname(file),
    `.${path.basename(file)}.shadowbox-${tag}-${randomBytes(4).toString('hex')}`,
  );

/**
 * Writes a hypothesis into the workspace all-or-nothing. New contents are first written beside
 * their targets (exclusive create), then everything is swapped in by renames, keeping the old files
 * aside; if any step fails, the renames are undone and the workspace is as it was.
 */
export async function applyHypothesis(
  workspace: string,
  hypothesis: PreparedHypothesis,
): Promise<void> {
  for (const change of hypothesis.changes) {
    if (!(await stillAsPrepared(workspace, change))) {
      throw new AppError(
        'CONFLICT',
        `cannot apply '${hypothesis.name}': '${change.path}' changed in the workspace during the run`,
      );
    }
  }
  const createdDirs: string[] = [];
  const staged: { target: string; temp: string | null; backup: string | null }[] = [];
  const undo: (() => Promise<void>)[] = [];
  try {
    for (const change of hypothesis.changes) {
      const target = path.join(workspace, change.path);
      let temp: string | null = null;
      if (change.after !== null) {
        const first = await mkdir(path.dirname(target), { recursive: true });
        if (first !== undefined) createdDirs.push(first);
        temp = sideName(target, 'new');
        const mode = change.before.exists ? change.before.mode : 0o644;
        await writeFile(temp, change.after, { flag: 'wx', mode });
        await chmod(temp, mode);
        await writtenInLaterSecond(temp, change.before.exists ? await lstat(target) : null);
      }
      staged.push({ target, temp, backup: change.before.exists ? sideName(target, 'old') : null });
    }
    for (const { target, temp, backup } of staged) {
      if (backup !== null) {
        await rename(target, backup);
        undo.push(() => rename(backup, target));
      }
      if (temp !== null) {
        await rename(temp, target);
        undo.push(() => rename(target, temp));
      }
    }
  } catch (error) {
    for (const step of undo.reverse()) await step().catch(() => undefined);
    for (const { temp } of staged) if (temp !== null) await unlink(temp).catch(() => undefined);
    // Directories this call created hold nothing but what it wrote.
    for (const dir of createdDirs) await rm(dir, { recursive: true, force: true });
    throw new AppError(
      'APPLY_FAILED',
      `could not apply '${hypothesis.name}'; the workspace was left as it was`,
      {
        cause: error,
      },
    );
  }
  for (const { backup } of staged) if (backup !== null) await unlink(backup).catch(() => undefined);
}
