import { stat } from 'node:fs/promises';
import { applyInOrder, diffCommits, findCulprits, treeChanges } from '../engine/landing';
import type { ShadowPort } from '../engine/loop';
import type { Hypothesis, HypothesisOutcome, TestEvidence } from '../engine/shadow';
import { worktreePath } from '../engine/workspace';
import { AppError } from '../errors/app-error';
import { loadLoopTask } from '../tasks/load-loop-task';
import type { BatchCulprit, BatchTrial } from './batch-api';
import type { BatchServiceDeps } from './batch-deps';
import type { BatchPlan } from './batch-git-plan';
import type { MemberFacts } from './batch-members';

const maxTail = 4000;

/** What testing a batch found: the combination passes (its commits), or the culprits. */
export type BatchTestOutcome =
  | { readonly passes: true; readonly commits: readonly string[]; readonly diff: Buffer }
  | { readonly passes: false; readonly culprits: readonly BatchCulprit[] };

export interface BatchTestInput {
  readonly gitDir: string;
  readonly plan: BatchPlan;
  /** The members in batch order. */
  readonly members: readonly MemberFacts[];
  readonly committer: { readonly name: string; readonly email: string; readonly date: Date };
  /** Called with each trial as it is judged (the page shows them as they come). */
  readonly onTrial: (trial: BatchTrial) => Promise<void>;
  readonly signal: AbortSignal;
}

/**
 * Tests the members together once, in the host member's worktree (its dependencies installed) in
 * a sandboxed shadow holding the combined tree; judged against the baseline (nothing passing may
 * fail) and against each member's own fixed tests (none may fail again). A combination that
 * breaks something is bisected (`findCulprits`), each trial another shadow run.
 */
export async function testBatch(
  deps: Pick<BatchServiceDeps, 'db' | 'layout'> & { readonly shadows: ShadowPort },
  input: BatchTestInput,
): Promise<BatchTestOutcome> {
  const { gitDir, plan, members, committer } = input;
  const host = await loadLoopTask(deps.db, plan.host.taskId);
  const workspace = worktreePath(deps.layout, host.id);
  if (host.checkpointSha !== plan.host.head || (await stat(workspace).catch(() => null)) === null) {
    throw new AppError(
      'INVALID_STATE',
      `the worktree of task ${host.id} (the batch's host) is not at its approved commit on this machine, so the batch cannot run there`,
    );
  }
  const reference: TestEvidence = plan.host.baselineRun;
  const trials = new Map<string, BatchTrial>();
  const combine = (set: readonly MemberFacts[]) =>
    applyInOrder(
      gitDir,
      plan.base,
      set.map((member) => ({
        commit: plan.replayed.get(member.taskId) as string,
        message: member.title,
      })),
      committer,
    );

  const tryMembers = async (set: readonly MemberFacts[]): Promise<boolean> => {
    input.signal.throwIfAborted();
    const combined = await combine(set);
    const ids = set.map((member) => member.taskId);
    let outcome: HypothesisOutcome | null = null;
    let note: string | null = null;
    if ('failedAt' in combined) {
      note = `the changes do not apply together (${combined.files.map((file) => file.path).join(', ')})`;
    } else {
      const tip = combined.commits[combined.commits.length - 1] as string;
      const report = await deps.shadows.run(
        {
          workspace,
          command: host.testCommand,
          hypotheses: [await hypothesisOf(gitDir, plan.host.head, tip, ids)],
          reference,
          ...(host.buildCommand === null ? {} : { buildCommand: host.buildCommand }),
          limits: host.limits,
          env: host.setup?.env ?? {},
          signal: input.signal,
        },
        { emit: () => undefined },
      );
      input.signal.throwIfAborted();
      outcome = report.hypotheses[0] ?? null;
    }
    const trial = judge(ids, set, outcome, note);
    trials.set(ids.join(','), trial);
    await input.onTrial(trial);
    if (trial.verdict === 'unrun') {
      throw new AppError(
        'INVALID_STATE',
        `the combination ${ids.join(' + ')} could not be tested: ${trial.note ?? ''}`,
      );
    }
    return trial.verdict === 'breaks';
  };

  if (!(await tryMembers(members))) {
    const combined = await combine(members);
    if ('failedAt' in combined) throw new AppError('INTERNAL', 'the combination stopped applying');
    const tip = combined.commits[combined.commits.length - 1] as string;
    return {
      passes: true,
      commits: combined.commits,
      diff: await diffCommits(gitDir, plan.base, tip),
    };
  }
  const found = await findCulprits({
    members,
    tryMembers,
    passesAlone: (member) => member.baseline === plan.base,
  });
  return {
    passes: false,
    culprits: found.map((set) => {
      const ids = set.map((member) => member.taskId);
      const trial = trials.get(ids.join(','));
      return { members: ids, broken: trial?.broken ?? [], lost: trial?.lost ?? [] };
    }),
  };
}

/** The combined tree as a hypothesis over the host's worktree (at the host's approved commit). */
async function hypothesisOf(
  gitDir: string,
  hostHead: string,
  tip: string,
  ids: readonly string[],
): Promise<Hypothesis> {
  const changes = await treeChanges(gitDir, hostHead, tip);
  return {
    name: `batch-${ids.length}`,
    edits: changes.edits.map((edit) => {
      const content = edit.content.toString('utf8');
      if (!Buffer.from(content, 'utf8').equals(edit.content)) {
        throw new AppError(
          'INVALID_STATE',
          `'${edit.path}' is not UTF-8 text: a batch can only test changes to text files`,
        );
      }
      return { path: edit.path, content };
    }),
    delete: [...changes.deleted],
  };
}

/** A trial's verdict: broken baseline tests and members' lost fixes, test by test. */
export function judge(
  ids: readonly string[],
  set: readonly MemberFacts[],
  outcome: HypothesisOutcome | null,
  note: string | null,
): BatchTrial {
  if (outcome === null) {
    return {
      members: ids,
      verdict: 'breaks',
      broken: [],
      lost: [],
      passed: 0,
      failed: 0,
      note,
      outputTail: '',
    };
  }
  const base = {
    members: ids,
    passed: outcome.passed,
    failed: outcome.failed,
    outputTail: outcome.outputTail.slice(-maxTail),
  };
  if (outcome.error !== null) {
    return { ...base, verdict: 'unrun', broken: [], lost: [], note: outcome.error };
  }
  if (outcome.buildFailed || outcome.timedOut) {
    const why = outcome.timedOut ? 'the run timed out' : 'the combined tree does not build';
    return { ...base, verdict: 'breaks', broken: [], lost: [], note: why };
  }
  if (!outcome.parsed) {
    return {
      ...base,
      verdict: 'unrun',
      broken: [],
      lost: [],
      note: 'its output could not be read as test results',
    };
  }
  const failing = new Set(outcome.cases.filter((c) => c.status !== 'passed').map((c) => c.id));
  for (const id of outcome.failing ?? []) failing.add(id);
  const broken = [...(outcome.tests?.broken ?? [])];
  const lost = set
    .map((member) => ({
      taskId: member.taskId,
      tests: member.fixed.filter((id) => failing.has(id)),
    }))
    .filter((entry) => entry.tests.length > 0);
  const byTotals = outcome.tests !== null && !outcome.tests.byId && outcome.tests.counts.broken > 0;
  const breaks = broken.length > 0 || lost.length > 0 || byTotals;
  return {
    ...base,
    verdict: breaks ? 'breaks' : 'passes',
    broken,
    lost,
    note: byTotals
      ? `${outcome.tests.counts.broken} more tests fail than at the baseline (the runner names no tests)`
      : null,
  };
}
