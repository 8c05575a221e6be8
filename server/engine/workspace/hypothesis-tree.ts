import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { git, gitText } from './git';
import { withRepoLock } from './repo-lock';
import { checkpointIdentity, cleanLabel } from './task-worktree';
import { assertCommitId } from './workspace-layout';

/** One file of a hypothesis: its new bytes, or null when it deletes the file. */
export interface TreeEdit {
  readonly path: string;
  readonly content: Buffer | null;
}

const regularModes = new Set(['100644', '100755']);

/**
 * The tree a hypothesis' edits make of the checkpoint it ran on, built in the object store alone
 * (a throwaway index, no worktree): what the loop would have committed had it won. A written file
 * keeps the mode it had (an executable stays executable), a new one is 100644, as the shadow
 * run's overlay leaves them. Returns the tree's id.
 */
export async function treeWithEdits(
  gitDir: string,
  base: string,
  edits: readonly TreeEdit[],
): Promise<string> {
  assertCommitId(base);
  const dir = await mkdtemp(join(os.tmpdir(), 'sbx-tree-'));
  const env = { GIT_INDEX_FILE: join(dir, 'index'), GIT_LITERAL_PATHSPECS: '1' };
  try {
    return await withRepoLock(gitDir, async () => {
      await git({ gitDir, env, args: ['read-tree', base] });
      const modes = await modesAt(gitDir, base, edits);
      const records: string[] = [];
      for (const edit of edits) {
        if (edit.content === null) {
          records.push(`0 ${'0'.repeat(40)}\t${edit.path}`);
          continue;
        }
        const blob = await gitText({
          gitDir,
          args: ['hash-object', '-w', '--stdin'],
          input: edit.content,
        });
        const mode = modes.get(edit.path);
        records.push(
          `${mode !== undefined && regularModes.has(mode) ? mode : '100644'} ${blob}\t${edit.path}`,
        );
      }
      if (records.length > 0) {
        await git({
          gitDir,
          env,
          args: ['update-index', '-z', '--index-info'],
          input: records.map((record) => `${record}\0`).join(''),
        });
      }
      return gitText({ gitDir, env, args: ['write-tree'] });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The modes the edited paths have at `base` (absent: a new file). */
async function modesAt(
  gitDir: string,
  base: string,
  edits: readonly TreeEdit[],
): Promise<Map<string, string>> {
  const modes = new Map<string, string>();
  if (edits.length === 0) return modes;
  const output = await git({
    gitDir,
    env: { GIT_LITERAL_PATHSPECS: '1' },
    args: ['ls-tree', '-z', '--full-tree', base, '--', ...edits.map((e) => e.path)],
  });
  for (const record of output.toString('utf8').split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    modes.set(record.slice(tab + 1), record.slice(0, record.indexOf(' ')));
  }
  return modes;
}

/**
 * Commits `tree` on `parent` as a checkpoint (the loop's identity, no hooks), without touching any
 * worktree: a promoted runner-up becomes the iteration's checkpoint this way. Returns its id.
 */
export function commitTree(
  gitDir: string,
  tree: string,
  parent: string,
  label: string,
): Promise<string> {
  assertCommitId(tree);
  assertCommitId(parent);
  return gitText({
    gitDir,
    env: checkpointIdentity,
    args: ['commit-tree', tree, '-p', parent, '-F', '-'],
    input: `${cleanLabel(label)}\n`,
  });
}
