import { AppError } from '../errors/app-error';
import { PATCH_AUTHOR, verifySha256 } from '../engine/review';
import {
  checkpointChain,
  createBundle,
  formatSeries,
  restoreSource,
  sourceGitDir,
  type ExportOptions,
  type ExportStep,
  type GitIdentity,
} from '../engine/workspace';
import { exportMessage, type CommitEvidence } from './export-message';
import type { ExportKind, PatchDownload } from './task-api';
import type { TaskServiceDeps } from './task-service-deps';

export type ExportDeps = Pick<TaskServiceDeps, 'db' | 'layout' | 'bundles'>;

const shadowbox: GitIdentity = identityOf(PATCH_AUTHOR);

/**
 * An approved task's change as commits: a `git format-patch` series or a `git bundle`. Only
 * while the approval stands on the diff as it is now (STALE_DIFF otherwise), and only from the
 * commit that diff was made from (named in its own stored bytes), so what is exported is exactly
 * what was approved.
 */
export async function exportApproved(
  deps: ExportDeps,
  taskId: string,
  what: ExportKind,
): Promise<PatchDownload> {
  const plan = await planApprovedExport(deps, taskId, what.squash);
  const stem = `shadowbox-${taskId}-${plan.sha256.slice(0, 12)}${what.squash ? '-squashed' : ''}`;
  if (what.kind === 'series') {
    return {
      bytes: await formatSeries(plan.commits),
      sha256: plan.sha256,
      fileName: `${stem}.mbox`,
    };
  }
  const bytes = await createBundle({
    ...plan.commits,
    branch: `shadowbox/${taskId}`,
    // A Git URL's baseline is the team's own commit; an archive's is Shadowbox's import.
    withBaseline: plan.sourceKind !== 'git',
  });
  return { bytes, sha256: plan.sha256, fileName: `${stem}.bundle` };
}

/** An approved change, ready to be written as commits (a series, a bundle, a push). */
export interface ApprovedExport {
  readonly commits: ExportOptions;
  /** The approved diff's SHA-256. */
  readonly sha256: string;
  readonly sourceKind: string;
}

/**
 * The commits an approved task lands as: checked to be exactly what was approved (the approval
 * is on the current diff, whose stored bytes name the commit it was made from), then one per
 * checkpoint (or one in all), with the messages and authors people should see.
 */
export async function planApprovedExport(
  deps: ExportDeps,
  taskId: string,
  squash: boolean,
): Promise<ApprovedExport> {
  const task = await deps.db.task.findUnique({
    where: { id: taskId },
    select: {
      status: true,
      approvalState: true,
      approvedDiffSha256: true,
      diffSha256: true,
      diff: { select: { bytes: true } },
      baselineCommit: true,
      sourceId: true,
      sourceKind: true,
      title: true,
      problem: true,
      issueUrl: true,
    },
  });
  if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
  if (task.status !== 'approved' || task.approvalState !== 'approved') {
    throw new AppError(
      'INVALID_STATE',
      `task ${taskId} is ${task.status}: only an approved change can be exported`,
    );
  }
  const sha256 = task.approvedDiffSha256;
  if (sha256 === null || task.diffSha256 !== sha256 || task.diff === null) {
    throw new AppError(
      'STALE_DIFF',
      `the approval of task ${taskId} is not on its current diff; review it again before exporting`,
    );
  }
  const mail = Buffer.from(task.diff.bytes);
  if (!verifySha256(mail, sha256)) {
    throw new AppError('INTERNAL', `the stored diff of task ${taskId} does not match its hash`);
  }
  const head = commitOfMail(mail);
  if (head === null || task.baselineCommit === null || task.sourceId === null) {
    throw new AppError('INVALID_STATE', `task ${taskId}'s approved diff names no commit to export`);
  }
  if (deps.bundles !== undefined) {
    await restoreSource({
      layout: deps.layout,
      sourceId: task.sourceId,
      commit: head,
      bundles: deps.bundles,
    });
  }
  const gitDir = sourceGitDir(deps.layout, task.sourceId);
  const chain = await checkpointChain(gitDir, task.baselineCommit, head);
  const approval = await approvalOf(deps, taskId, sha256);
  const parts = await partsOf(deps, taskId, chain);
  const message = (part: ExportPart | null, evidence: CommitEvidence | null) =>
    exportMessage({
      title: task.title,
      problem: task.problem,
      issueUrl: task.issueUrl,
      part: part?.label ?? null,
      evidence,
      approval: { reviewer: approval.reviewer, sha256 },
    });
  const last = parts[parts.length - 1];
  const steps: ExportStep[] =
    squash || parts.length === 1
      ? [
          {
            commit: head,
            message: message(null, squashedEvidence(parts)),
            author: last?.author ?? shadowbox,
            authorDate: last?.date ?? approval.at,
          },
        ]
      : parts.map((part) => ({
          commit: part.commit,
          message: message(part, part.evidence),
          author: part.author,
          authorDate: part.date,
        }));
  return {
    commits: {
      gitDir,
      baseline: task.baselineCommit,
      steps,
      committer: shadowbox,
      commitDate: approval.at,
    },
    sha256,
    sourceKind: task.sourceKind,
  };
}

/** The commit a stored patch mail was made from: its `From <sha> …` line (zeros: none). */
export function commitOfMail(mail: Buffer): string | null {
  const match = /^From ([0-9a-f]{40}) /.exec(mail.subarray(0, 64).toString('latin1'));
  const sha = match?.[1];
  return sha === undefined || /^0+$/.test(sha) ? null : sha;
}

async function approvalOf(
  deps: ExportDeps,
  taskId: string,
  sha256: string,
): Promise<{ reviewer: string; at: Date }> {
  const review = await deps.db.review.findFirst({
    where: { taskId, diffSha256: sha256, verdict: 'approve' },
    orderBy: { createdAt: 'desc' },
    select: { reviewer: true, createdAt: true },
  });
  if (review === null) {
    throw new AppError('INVALID_STATE', `task ${taskId} has no approval recorded for its diff`);
  }
  return { reviewer: review.reviewer, at: review.createdAt };
}

interface ExportPart {
  readonly commit: string;
  readonly label: { readonly iteration: number; readonly hypothesis: string } | null;
  readonly author: GitIdentity;
  readonly date: Date;
  readonly evidence: CommitEvidence | null;
}

/** Each commit of the chain with the iteration whose winner it is, that winner's submitter and run. */
async function partsOf(
  deps: ExportDeps,
  taskId: string,
  chain: readonly string[],
): Promise<ExportPart[]> {
  const iterations = await deps.db.iteration.findMany({
    where: { taskId, checkpointSha: { in: [...chain] } },
    select: {
      index: true,
      winner: true,
      checkpointSha: true,
      hypotheses: {
        select: {
          name: true,
          origin: true,
          createdAt: true,
          submittedById: true,
          runs: {
            where: { kind: 'hypothesis' },
            orderBy: { createdAt: 'desc' },
            take: 1,
            select: { passed: true, tests: true },
          },
        },
      },
    },
  });
  const bySha = new Map(iterations.map((iteration) => [iteration.checkpointSha, iteration]));
  const submitters = iterations.flatMap((iteration) =>
    iteration.hypotheses.flatMap((h) => (h.submittedById === null ? [] : [h.submittedById])),
  );
  const people = new Map(
    (
      await deps.db.user.findMany({
        where: { id: { in: submitters } },
        select: { id: true, name: true, username: true, email: true },
      })
    ).map((person) => [person.id, person]),
  );
  return chain.map((commit): ExportPart => {
    const iteration = bySha.get(commit);
    const winner = iteration?.hypotheses.find((h) => h.name === iteration.winner);
    if (iteration === undefined || winner === undefined) {
      return { commit, label: null, author: shadowbox, date: new Date(0), evidence: null };
    }
    const run = winner.runs[0];
    return {
      commit,
      label: { iteration: iteration.index, hypothesis: winner.name },
      author: authorOf(winner.origin, people.get(winner.submittedById ?? '') ?? null),
      date: winner.createdAt,
      evidence: run === undefined ? null : evidenceOf(run),
    };
  });
}

/** The person who submitted it (directly or with a token); the fixer or Shadowbox otherwise. */
function authorOf(
  origin: string,
  person: { name: string; username: string | null; email: string } | null,
): GitIdentity {
  if (person !== null) {
    return { name: gitName(person.name || person.username || person.email), email: person.email };
  }
  if (origin === 'llm') return { name: 'Shadowbox fixer', email: shadowbox.email };
  return shadowbox;
}

function evidenceOf(run: { passed: number; tests: unknown }): CommitEvidence {
  const tests = run.tests as { fixed?: unknown; counts?: { fixed?: unknown } } | null;
  const fixed = Array.isArray(tests?.fixed)
    ? tests.fixed.filter((id): id is string => typeof id === 'string')
    : [];
  const counted = tests?.counts?.fixed;
  return {
    passed: run.passed,
    fixed,
    fixedCount: typeof counted === 'number' ? Math.max(counted, fixed.length) : fixed.length,
  };
}

/** One commit for the whole change: the last run's passes, every step's fixes. */
function squashedEvidence(parts: readonly ExportPart[]): CommitEvidence | null {
  const runs = parts.flatMap((part) => (part.evidence === null ? [] : [part.evidence]));
  const last = runs[runs.length - 1];
  if (last === undefined) return null;
  const fixed = [...new Set(runs.flatMap((run) => run.fixed))];
  const fixedCount = runs.reduce((sum, run) => sum + run.fixedCount, 0);
  return { passed: last.passed, fixed, fixedCount: Math.max(fixedCount, fixed.length) };
}

/** `Name <email>` → its parts. */
function identityOf(label: string): GitIdentity {
  const match = /^(.*?)\s*<([^>]*)>$/.exec(label);
  return { name: match?.[1] ?? label, email: match?.[2] ?? '' };
}

/** Git refuses `<`, `>` and newlines in a name. */
function gitName(name: string): string {
  const clean = name.replace(/[<>\n\r]/g, '').trim();
  return clean === '' ? 'unknown' : clean;
}
