import { recordAudit } from '../audit/audit-log';
import { actorLabel, auditedAs } from '../auth/actor';
import {
  giteaRepository,
  githubRepository,
  openOrUpdatePullRequest,
  pushCommits,
  type ForgeRepository,
} from '../engine/landing';
import { AppError } from '../errors/app-error';
import { remoteCredential, type RemoteCredential } from '../remotes/remotes';
import type { SecretBox } from '../remotes/secret-box';
import { planApprovedExport, type ApprovedExport, type ExportDeps } from './export-approved';
import { requireTask } from './task-access';
import type { Actor, PushOutcome, PushTaskInput } from './task-api';
import type { TaskServiceDeps } from './task-service-deps';

export type PushTaskDeps = ExportDeps &
  Pick<TaskServiceDeps, 'store' | 'gitPolicy'> & { readonly secrets: SecretBox };

/**
 * Pushes an approved task's commits to a branch of a configured remote (reviewers). Only a task
 * made from a Git URL (its baseline is a commit of the team's repository) and only the approved
 * change (STALE_DIFF otherwise). The push carries a lease: the branch must be where Shadowbox's
 * last push of this task left it (or not exist), so nobody's work is overwritten. Audited, and on
 * the task's timeline.
 */
export async function pushTask(
  deps: PushTaskDeps,
  taskId: string,
  input: PushTaskInput,
  actor: Actor,
): Promise<PushOutcome> {
  await requireTask(deps.db, taskId, actor, 'review');
  const task = await deps.db.task.findUnique({
    where: { id: taskId },
    select: { sourceKind: true, sourceRef: true, title: true },
  });
  if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
  if (task.sourceKind !== 'git') {
    throw new AppError(
      'INVALID_STATE',
      `task ${taskId} was made from an archive: only a task made from a Git URL can be pushed (download its bundle instead)`,
    );
  }
  const branch = input.branch ?? `shadowbox/${taskId}`;
  const plan = await planApprovedExport(deps, taskId, input.squash === true);
  const remote = await remoteCredential({ db: deps.db, box: deps.secrets }, input.remote);
  const forge = input.pullRequest === true ? forgeOf(remote) : null;
  // The remote's host passes the policy now, as a source's must (a name may have moved).
  const checked = await deps.gitPolicy.check(remote.url);
  if (!checked.ok) {
    throw new AppError(checked.error.code, `remote ${remote.name}: ${checked.error.message}`);
  }
  const last = await deps.db.taskPush.findFirst({
    where: { taskId, remoteId: remote.id, branch },
    orderBy: { createdAt: 'desc' },
    select: { commitSha: true },
  });
  const { commit } = await pushCommits({
    commits: plan.commits,
    url: checked.url,
    branch,
    expected: last?.commitSha ?? null,
    credential: { username: remote.username ?? 'shadowbox', secret: remote.secret },
  });
  // After the push: a pull request shows the branch as it is now (its title and body updated).
  const pullRequest =
    forge === null
      ? null
      : await openOrUpdatePullRequest(forge, {
          head: branch,
          base: task.sourceRef,
          title: task.title,
          body: pullRequestBody(plan),
        });
  const by = actorLabel(actor);
  await deps.store.transact(taskId, async (tx, emit) => {
    await tx.taskPush.create({
      data: {
        taskId,
        remoteId: remote.id,
        branch,
        commitSha: commit,
        diffSha256: plan.sha256,
        pushedBy: by,
        pullRequestUrl: pullRequest?.url ?? null,
      },
    });
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: 'task.push',
      target: taskId,
      details: {
        remote: remote.name,
        url: remote.url,
        branch,
        commit,
        sha256: plan.sha256,
        pullRequest: pullRequest?.url ?? null,
      },
    });
    await emit({
      type: 'task.pushed',
      by,
      remote: remote.name,
      url: remote.url,
      branch,
      commit,
      sha256: plan.sha256,
      pullRequest: pullRequest?.url ?? null,
    });
  });
  return {
    remote: remote.name,
    branch,
    commit,
    sha256: plan.sha256,
    pullRequest:
      pullRequest === null
        ? null
        : { number: pullRequest.number, url: pullRequest.url, created: pullRequest.created },
  };
}

/** The remote's forge, with its token: only a remote added with `--forge` opens pull requests. */
function forgeOf(remote: RemoteCredential): ForgeRepository {
  switch (remote.forge) {
    case 'github':
      return githubRepository({ cloneUrl: remote.url, token: remote.secret });
    case 'gitea':
      return giteaRepository({ cloneUrl: remote.url, token: remote.secret });
    case null:
      throw new AppError(
        'INVALID_STATE',
        `remote ${remote.name} names no forge, so no pull request can be opened there (add it again with --forge github or gitea)`,
      );
  }
}

/** The body: the newest commit's message without its subject (problem, issue, evidence, approval). */
function pullRequestBody(plan: ApprovedExport): string {
  const last = plan.commits.steps[plan.commits.steps.length - 1];
  const body = (last?.message ?? '').split('\n').slice(2).join('\n').trim();
  return `${body}\n\n_Pushed by Shadowbox; the approval is bound to the diff's SHA-256 above._\n`;
}
