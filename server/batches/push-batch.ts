import { recordAudit } from '../audit/audit-log';
import { actorLabel, auditedAs } from '../auth/actor';
import type { Prisma } from '../db/client';
import { inTransaction } from '../db/transaction';
import { pushCommits } from '../engine/landing';
import { AppError } from '../errors/app-error';
import { remoteCredential } from '../remotes/remotes';
import type { Actor } from '../tasks/task-api';
import type { BatchPushView, PushBatchInput } from './batch-api';
import type { BatchServiceDeps } from './batch-deps';
import { batchCommitter, batchGitDir } from './batch-git-plan';
import type { BatchRow } from './batch-views';

/**
 * Pushes an approved batch to a branch of a configured remote: one commit per member, in batch
 * order, each carrying its task's title, the last holding the approved combined diff. The same
 * rules as a task's push: only while the approval is on the combined diff, the remote's host
 * passing the URL policy, the credential only in git's environment, and a lease on the branch.
 */
export async function pushBatch(
  deps: BatchServiceDeps,
  row: BatchRow,
  input: PushBatchInput,
  actor: Actor,
): Promise<BatchPushView> {
  if (row.status !== 'approved' || row.approvedSha256 === null) {
    throw new AppError(
      'INVALID_STATE',
      `batch ${row.id} is ${row.status}: only an approved batch can be pushed`,
    );
  }
  if (row.sourceKind !== 'git') {
    throw new AppError(
      'INVALID_STATE',
      `batch ${row.id} combines tasks made from an archive: only a batch of a Git URL's tasks can be pushed (download its combined diff instead)`,
    );
  }
  if (row.approvedSha256 !== row.diffSha256) {
    throw new AppError('STALE_DIFF', `batch ${row.id}'s approval is not on its combined diff`);
  }
  if (deps.secrets === undefined)
    throw new AppError('INTERNAL', 'no secret box to open remotes with');
  const commits = (row.commits ?? []) as string[];
  const active = row.members.filter((member) => member.droppedAt === null);
  if (commits.length !== active.length || commits.length === 0) {
    throw new AppError('INTERNAL', `batch ${row.id}'s commits do not match its members`);
  }
  const remote = await remoteCredential({ db: deps.db, box: deps.secrets }, input.remote);
  const checked = await deps.gitPolicy.check(remote.url);
  if (!checked.ok) {
    throw new AppError(checked.error.code, `remote ${remote.name}: ${checked.error.message}`);
  }
  const branch = input.branch ?? `shadowbox/batch-${row.id}`;
  const pushes = ((row.pushes ?? []) as unknown as BatchPushView[]).filter(
    (push) => push.remote === remote.name && push.branch === branch,
  );
  const committer = batchCommitter(row.createdAt);
  const identity = { name: committer.name, email: committer.email };
  const reviewedAt = row.reviewedAt ?? row.createdAt;
  const { commit } = await pushCommits({
    commits: {
      gitDir: batchGitDir(deps.layout, row.id),
      baseline: row.baseCommit,
      steps: active.map((member, index) => ({
        commit: commits[index] as string,
        message: [
          member.task.title === '' ? `Shadowbox task ${member.taskId}` : member.task.title,
          '',
          `Task ${member.taskId}, approved as sha256 ${member.diffSha256}.`,
          `Integrated in batch ${row.id}: ${active.length} tasks tested together.`,
          `Approved-by: ${row.reviewedBy ?? ''} (sha256 ${row.approvedSha256 ?? ''})`,
        ].join('\n'),
        author: identity,
        authorDate: reviewedAt,
      })),
      committer: identity,
      commitDate: reviewedAt,
    },
    url: checked.url,
    branch,
    expected: pushes[pushes.length - 1]?.commit ?? null,
    credential: { username: remote.username ?? 'shadowbox', secret: remote.secret },
  });
  const pushed: BatchPushView = {
    remote: remote.name,
    branch,
    commit,
    by: actorLabel(actor),
    at: deps.clock.now().toISOString(),
  };
  await inTransaction(deps.db, async (tx) => {
    const current = await tx.batch.findUniqueOrThrow({
      where: { id: row.id },
      select: { pushes: true },
    });
    const all = [...((current.pushes ?? []) as unknown as BatchPushView[]), pushed];
    await tx.batch.update({
      where: { id: row.id },
      data: { pushes: all as unknown as Prisma.InputJsonValue },
    });
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: 'batch.push',
      target: row.id,
      details: { remote: remote.name, url: remote.url, branch, commit, sha256: row.approvedSha256 },
    });
  });
  return pushed;
}
