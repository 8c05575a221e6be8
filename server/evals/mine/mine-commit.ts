import type { LoopWorkspace, ShadowPort } from '../../engine/loop';
import { discardEvents } from '../../engine/ports';
import type { Hypothesis, ShadowRunRequest } from '../../engine/shadow';
import { blobAt, patchOf, type ChangedFile, type CommitCandidate } from './commit-candidates';
import { decide, runResults, type KeepDecision } from './keep-decision';

export interface MineCommitDeps {
  /** The miner's private repository (the worktree's). */
  readonly gitDir: string;
  /** One worktree, moved to each commit's parent in turn; setup's outputs stay in it. */
  readonly workspace: LoopWorkspace;
  readonly shadows: ShadowPort;
  readonly command: readonly string[];
  /** What every run shares: the setup's variables, the build step, caps, the timeout. */
  readonly settings: Pick<ShadowRunRequest, 'buildCommand' | 'env' | 'timeoutMs' | 'limits'>;
  readonly signal?: AbortSignal;
}

export type MinedCommit =
  | (KeepDecision & { readonly kept: false })
  | (KeepDecision & {
      readonly kept: true;
      readonly patch: string;
      readonly testPatch: string;
    });

const testsOnly = 'parent+tests';
const withFix = 'parent+fix';

/** The files as the commit has them, or the first that a hypothesis cannot carry. */
async function hypothesisOf(
  gitDir: string,
  sha: string,
  name: string,
  files: readonly ChangedFile[],
): Promise<Hypothesis | { readonly binary: string }> {
  const edits: { path: string; content: string }[] = [];
  const deletions: string[] = [];
  for (const file of files) {
    if (file.status === 'D') {
      deletions.push(file.path);
      continue;
    }
    const bytes = await blobAt(gitDir, sha, file.path);
    const content = bytes.toString('utf8');
    // Hypotheses carry text: a file that is not UTF-8 text would not come back byte for byte.
    if (bytes.includes(0) || !Buffer.from(content, 'utf8').equals(bytes)) {
      return { binary: file.path };
    }
    edits.push({ path: file.path, content });
  }
  return { name, edits, delete: deletions };
}

/**
 * Runs the commit's tests in shadows of its parent: twice with only the test changes (A), twice
 * with the whole commit (B), each round one shadow run of both (the two runs of one tree are in
 * different rounds: a run never reuses another run's outcome). The worktree is never written.
 */
export async function mineCommit(
  deps: MineCommitDeps,
  candidate: CommitCandidate,
): Promise<MinedCommit> {
  const a = await hypothesisOf(deps.gitDir, candidate.sha, testsOnly, candidate.tests);
  const b = await hypothesisOf(deps.gitDir, candidate.sha, withFix, [
    ...candidate.tests,
    ...candidate.sources,
  ]);
  if ('binary' in a || 'binary' in b) {
    const path = 'binary' in a ? a.binary : 'binary' in b ? b.binary : '';
    return {
      kept: false,
      why: 'unsupported-change',
      reason: `changes a file that is not UTF-8 text (${path}), which a run cannot carry`,
      flaky: [],
    };
  }
  await deps.workspace.rollbackTo(candidate.parent);
  const round = async () => {
    const report = await deps.shadows.run(
      {
        workspace: deps.workspace.path,
        command: deps.command,
        hypotheses: [a, b],
        parallel: 2,
        ...deps.settings,
        ...(deps.signal === undefined ? {} : { signal: deps.signal }),
      },
      discardEvents,
    );
    const of = (name: string) => runResults(report.hypotheses.find((h) => h.name === name));
    return { a: of(testsOnly), b: of(withFix) };
  };
  const first = await round();
  // A fix that does not build the first time is not run again.
  const second = first.b.ok ? await round() : first;
  const decision = decide([first.a, second.a], [first.b, second.b]);
  if (!decision.kept) return decision;
  return {
    ...decision,
    testPatch: await patchOf(deps.gitDir, candidate.parent, candidate.sha, candidate.tests),
    patch: await patchOf(deps.gitDir, candidate.parent, candidate.sha, candidate.sources),
  };
}
