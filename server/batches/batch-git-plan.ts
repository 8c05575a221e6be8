import path from 'node:path';
import {
  isAncestor,
  mergeCommits,
  openBatchRepo,
  replayOnto,
  type BatchCommitter,
} from '../engine/landing';
import type { WorkspaceLayout } from '../engine/workspace';
import { AppError } from '../errors/app-error';
import type { BatchConflict } from './batch-api';
import type { MemberFacts } from './batch-members';

/** The batch's own repository: the commits it writes, borrowing its members' objects. */
export const batchGitDir = (layout: WorkspaceLayout, batchId: string): string =>
  path.join(path.dirname(layout.sourcesDir), 'batches', `${batchId}.git`);

/** Who writes a batch's commits; dated at the batch's creation, so they are the same each time. */
export const batchCommitter = (createdAt: Date): BatchCommitter => ({
  name: 'Shadowbox',
  email: 'batch@shadowbox.invalid',
  date: createdAt,
});

/** The members' changes on the batch's base, and the pairs that do not merge. */
export interface BatchPlan {
  readonly base: string;
  /** The member whose baseline is the base: its worktree hosts the combined runs. */
  readonly host: MemberFacts;
  /** Each member's change as one commit on the base, by task id. */
  readonly replayed: ReadonlyMap<string, string>;
  readonly conflicts: readonly BatchConflict[];
}

/**
 * Finds the base (the newest of the members' baselines, which every other one must precede),
 * replays each member onto it (one that does not replay cleanly is refused, naming its files),
 * and merges every pair with `git merge-tree` to find the conflicts before anything runs.
 */
export async function planBatch(
  gitDir: string,
  members: readonly MemberFacts[],
  committer: BatchCommitter,
): Promise<BatchPlan> {
  await openBatchRepo(gitDir, [...new Set(members.map((member) => member.gitDir))]);
  let host = members[0];
  if (host === undefined) throw new AppError('INVALID_ARGUMENT', 'a batch needs members');
  for (const member of members.slice(1)) {
    if (member.baseline === host.baseline) continue;
    if (await isAncestor(gitDir, host.baseline, member.baseline)) host = member;
    else if (!(await isAncestor(gitDir, member.baseline, host.baseline))) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `tasks ${host.taskId} and ${member.taskId} start from commits of diverged histories (${host.baseline.slice(0, 12)}, ${member.baseline.slice(0, 12)}): a batch needs one line of history`,
      );
    }
  }
  const base = host.baseline;
  const replayed = new Map<string, string>();
  for (const member of members) {
    const result = await replayOnto(
      gitDir,
      { baseline: member.baseline, head: member.head, message: member.title },
      base,
      committer,
    );
    if ('files' in result) {
      throw new AppError(
        'CONFLICT',
        `task ${member.taskId} does not rebase cleanly onto ${base.slice(0, 12)} (conflicts in ${result.files.map((file) => file.path).join(', ')}): approve it again on the newer commit, or leave it out`,
      );
    }
    replayed.set(member.taskId, result.commit);
  }
  const conflicts: BatchConflict[] = [];
  for (const [i, a] of members.entries()) {
    for (const b of members.slice(i + 1)) {
      const merged = await mergeCommits(
        gitDir,
        replayed.get(a.taskId) as string,
        replayed.get(b.taskId) as string,
      );
      if (!merged.clean) conflicts.push({ a: a.taskId, b: b.taskId, files: merged.files });
    }
  }
  return { base, host, replayed, conflicts };
}
