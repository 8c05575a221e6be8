import type { TestCase } from '../../parsers';
import type { Hypothesis } from '../../shadow/hypothesis';
import { disqualification } from '../../shadow/rank';
import { compareTests } from '../../shadow/test-delta';
import type { HypothesisResult, ShadowRunReport } from '../../shadow/shadow-report';
import type { ShadowRunRequest } from '../../shadow/shadow-request';
import type { CandidateHypothesis } from '../fixer';
import {
  gatesFinished,
  type GateResult,
  type IterationRecord,
  type LoopTask,
  type LoopWorkspace,
  type ReviewArtifact,
  type SetupPlan,
  type SetupPort,
  type SetupRunResult,
  type ShadowPort,
  type TaskChanges,
  type TaskLoopStore,
  type WorkspacePort,
} from '../loop-ports';
import type { LoopDeps } from '../task-step';
import type { RunSummary, TaskEvent } from '../task-events';
import { initialTaskState, reduceTask, type TaskState } from '../task-reducer';

/** An in-memory TaskLoopStore: the reducer applied to every event, rows kept in arrays. */
export class MemoryLoopStore implements TaskLoopStore {
  state: TaskState = initialTaskState;
  events: TaskEvent[] = [];
  task: Omit<
    LoopTask,
    'status' | 'iterationCount' | 'diffSha256' | 'currentIteration' | 'lastRun' | 'referenceRun'
  >;
  iterations: {
    index: number;
    startedAt: Date;
    taken: boolean;
    reviewRound?: number;
    hypotheses: CandidateHypothesis[];
  }[] = [];
  replies: { threadId: string; body: string; author: string }[] = [];
  inbox: CandidateHypothesis[] = [];
  lastRun: RunSummary | null = null;
  referenceRun: RunSummary | null = null;
  reviews: ReviewArtifact[] = [];
  reviewEvidence: { partial: boolean; stillFailing: readonly string[] }[] = [];

  constructor(task: Partial<MemoryLoopStore['task']> = {}) {
    this.task = {
      id: 'task1',
      source: { kind: 'archive', name: 'p.tar.gz' },
      title: 'p.tar.gz',
      problem: '',
      issueUrl: null,
      testCommand: ['pytest'],
      maxIterations: 3,
      hypothesesPerIteration: 2,
      hypothesisWaitMs: 60_000,
      maxWallClockMs: 3_600_000,
      startedAt: null,
      sourceId: 'src',
      ownerId: null,
      teamId: null,
      baselineCommit: null,
      checkpointSha: null,
      cancelRequestedBy: null,
      reviewNowRequestedBy: null,
      fixer: 'external',
      allowTestEdits: false,
      limits: {},
      maxTokens: null,
      tokensUsed: 0,
      openSteps: [],
      baselineRun: null,
      setupCommands: null,
      buildCommand: null,
      knownFailures: [],
      setup: null,
      recentlyBroken: [],
      review: null,
      ...task,
    };
  }

  load(): Promise<LoopTask> {
    const current = this.iterations.at(-1);
    return Promise.resolve({
      ...this.task,
      status: this.state.status,
      iterationCount: this.state.iterationCount,
      diffSha256: this.state.diffSha256,
      currentIteration:
        current === undefined
          ? null
          : {
              index: current.index,
              startedAt: current.startedAt,
              taken: current.taken,
              reviewRound: current.reviewRound ?? 0,
            },
      lastRun: this.lastRun,
      referenceRun: this.referenceRun,
    });
  }

  emit(_taskId: string, event: TaskEvent, changes: TaskChanges = {}): Promise<void> {
    this.state = reduceTask(this.state, event);
    this.events.push(event);
    this.task = { ...this.task, ...changes };
    return Promise.resolve();
  }

  async recordBaseline(_t: string, _c: readonly string[], _m: string, run: RunSummary) {
    this.lastRun = run;
    this.referenceRun = run;
    this.task = { ...this.task, baselineRun: run };
    await this.emit('', { type: 'baseline.finished', run });
  }

  async beginIteration(_t: string, index: number) {
    this.iterations.push({ index, startedAt: new Date(0), taken: false, hypotheses: [] });
    await this.emit('', { type: 'iteration.started', index });
  }

  pendingHypotheses() {
    return Promise.resolve([...this.inbox]);
  }

  async takeHypotheses(_t: string, index: number, hypotheses: readonly CandidateHypothesis[]) {
    const iteration = this.iterations.find((i) => i.index === index);
    if (iteration === undefined) throw new Error(`no iteration ${index}`);
    iteration.taken = true;
    iteration.hypotheses = [...hypotheses];
    this.inbox = this.inbox.filter((c) => !hypotheses.includes(c));
    await this.emit('', {
      type: 'iteration.running',
      index,
      hypotheses: hypotheses.map((c) => ({ name: c.hypothesis.name, origin: c.origin })),
    });
  }

  takenHypotheses(_t: string, index: number) {
    return Promise.resolve(this.iterations.find((i) => i.index === index)?.hypotheses ?? []);
  }

  async recordIteration(_t: string, record: IterationRecord) {
    const best = record.report.hypotheses[0];
    if (best !== undefined) this.lastRun = { ...best, green: record.green };
    const winner = record.report.hypotheses.find((h) => h.name === record.report.winner);
    if (winner !== undefined) this.referenceRun = { ...winner, green: record.green };
    await this.emit(
      '',
      {
        type: 'iteration.finished',
        index: record.index,
        winner: record.report.winner,
        checkpointSha: record.checkpointSha,
        green: record.green,
        ranked: record.report.hypotheses,
        rejected: record.rejected.map(({ name, reason }) => ({ name, reason })),
      },
      record.checkpointSha === null ? {} : { checkpointSha: record.checkpointSha },
    );
  }

  async recordReview(
    _t: string,
    artifact: ReviewArtifact,
    evidence: { partial: boolean; stillFailing: readonly string[] },
  ) {
    this.reviews.push(artifact);
    this.reviewEvidence.push(evidence);
    await this.emit(
      '',
      {
        type: 'review.ready',
        diffSha256: artifact.sha256,
        flags: artifact.flags,
        size: artifact.bytes.length,
      },
      { reviewNowRequestedBy: null },
    );
  }

  gateRuns: { commitSha: string; results: readonly GateResult[] }[] = [];

  async recordGateRuns(
    _t: string,
    commitSha: string,
    _mode: string,
    results: readonly GateResult[],
  ) {
    this.gateRuns.push({ commitSha, results });
    await this.emit('', gatesFinished(commitSha, results));
  }

  comments: { reviewer: string; verdict: string; comment: string }[] = [];

  async recordReviewerComment(
    _t: string,
    comment: { reviewer: string; verdict: string; comment: string; diffSha256: string },
  ) {
    this.comments.push(comment);
    await this.emit('', { type: 'review.commented', ...comment });
  }

  async recordSpend(_t: string, spend: { tokens: number; costMicroUsd: number }) {
    this.task = { ...this.task, tokensUsed: this.task.tokensUsed + spend.tokens };
    await this.emit('', {
      type: 'fixer.spent',
      ...spend,
      totalTokens: this.task.tokensUsed,
      totalCostMicroUsd: spend.costMicroUsd,
    });
  }

  async recordThreadReplies(
    _t: string,
    replies: readonly { threadId: string; body: string }[],
    author: string,
  ) {
    this.replies.push(...replies.map((r) => ({ ...r, author })));
    for (const reply of replies) {
      await this.emit('', {
        type: 'review.thread',
        threadId: reply.threadId,
        action: 'replied',
        by: author,
      });
    }
  }

  /** A reviewer requests changes (what the review service does in its transaction). */
  async requestChanges(round: number, review: NonNullable<LoopTask['review']>) {
    const index = this.state.iterationCount + 1;
    this.iterations.push({
      index,
      startedAt: new Date(0),
      taken: false,
      reviewRound: round,
      hypotheses: [],
    });
    this.task = { ...this.task, review };
    await this.emit('', {
      type: 'task.changes_requested',
      sha256: this.state.diffSha256 ?? '',
      by: 'rita',
      round,
      iteration: index,
      summary: null,
      threads: review.threads,
    });
  }

  types(): string[] {
    return this.events.map((e) => e.type);
  }
}

/** A workspace that records what the loop did to it. */
export class FakeWorkspace implements LoopWorkspace {
  readonly path = '/ws';
  head = 'base'.padEnd(40, '0');
  readonly log: string[] = [];
  private commits = 0;

  checkpoint(label: string, paths: readonly string[]) {
    this.commits += 1;
    this.head = `c${this.commits}`.padEnd(40, '0');
    this.log.push(`checkpoint ${label} [${paths.join(',')}]`);
    return Promise.resolve(this.head);
  }

  rollbackTo(sha: string, options: { keepIgnored?: boolean } = {}) {
    this.head = sha;
    this.log.push(`rollback ${sha.slice(0, 4)}${options.keepIgnored === false ? ' (clean)' : ''}`);
    return Promise.resolve();
  }

  diffBetween(from: string, to: string) {
    return Promise.resolve(Buffer.from(`diff ${from.slice(0, 4)}..${to.slice(0, 4)}\n`));
  }
}

export function fakeWorkspaces(
  workspace: FakeWorkspace,
  prepare: 'ok' | { code: string; message: string } = 'ok',
  /** The checkpoint's files by path; others read as `# <path>`. */
  files: Readonly<Record<string, string>> = {},
): WorkspacePort {
  return {
    prepare: () =>
      Promise.resolve(
        prepare === 'ok'
          ? { ok: true, sourceId: 'src', baselineCommit: workspace.head, workspace }
          : { ok: false, ...prepare },
      ),
    open: () => Promise.resolve(workspace),
    ensure: () => Promise.resolve({ workspace, restored: null, setupPending: false }),
    setupRestored: () => Promise.resolve(),
    repository: () => ({
      listFiles: () => Promise.resolve(['calc.py', 'test_calc.py']),
      readFile: (path) => Promise.resolve(files[path] ?? `# ${path}\n`),
    }),
  };
}

/**
 * Shadows whose outcome is chosen by the hypothesis name: `right*` passes, `slow*` waits for the
 * signal, anything else fails one test. The baseline (no edits) fails unless `baselineGreen`.
 */
export class FakeShadows implements ShadowPort {
  readonly mode = 'overlay' as const;
  readonly fallbackReason = null;
  readonly requests: ShadowRunRequest[] = [];

  constructor(
    private readonly baselineGreen = false,
    /** Replaces what the run without changes (the baseline) reports. */
    private readonly baselineOverrides: Partial<HypothesisResult> = {},
  ) {}

  async run(request: ShadowRunRequest): Promise<ShadowRunReport> {
    this.requests.push(request);
    const outcomes = await Promise.all(
      request.hypotheses.map(async (h: Hypothesis, index) => {
        if (h.name.startsWith('slow')) {
          await new Promise<void>((resolve) => {
            if (request.signal?.aborted === true) resolve();
            request.signal?.addEventListener('abort', () => resolve());
          });
        }
        const pass = h.name.startsWith('right') || (h.edits.length === 0 && this.baselineGreen);
        // `half*` fixes one of two failures; the baseline fails t3 and t4 unless green.
        const half = h.name.startsWith('half');
        const cases: TestCase[] = [
          { id: 't1', status: 'passed' },
          { id: 't2', status: 'passed' },
          { id: 't3', status: pass || half ? 'passed' : 'failed' },
          { id: 't4', status: pass ? 'passed' : 'failed' },
        ];
        const failed = cases.filter((c) => c.status === 'failed').length;
        const evidence = {
          passed: 4 - failed,
          failed,
          skipped: 0,
          parsed: true,
          buildFailed: false,
          cases,
        };
        const tests =
          request.reference === undefined ? null : compareTests(request.reference, evidence);
        const outcome = {
          name: h.name,
          exitCode: failed === 0 ? 0 : 1,
          signal: null,
          timedOut: false,
          durationMs: 10,
          ...evidence,
          tests,
          changedLines: h.edits.length,
          outputTail: '',
          error: request.signal?.aborted === true ? 'cancelled' : null,
        };
        const disqualified =
          request.demote?.get(h.name) ??
          disqualification(
            { ...outcome, index },
            {
              allowMissing: request.allowMissing ?? false,
              reviewRound: request.reviewRound ?? false,
            },
          );
        const overrides = h.edits.length === 0 ? this.baselineOverrides : {};
        return {
          ...outcome,
          disqualified,
          rank: disqualified === null ? 1 : index + 2,
          ...overrides,
        };
      }),
    );
    const demoted = (name: string): number => Number(request.demote?.has(name) ?? false);
    const ranked = [...outcomes]
      .sort((a, b) => demoted(a.name) - demoted(b.name) || a.rank - b.rank)
      .map((o, i) => ({ ...o, rank: i + 1 }));
    const top = ranked[0];
    const winner = top !== undefined && top.disqualified === null ? top.name : null;
    return {
      mode: 'overlay',
      winner,
      winnerDiff: winner === null ? null : 'diff',
      hypotheses: ranked,
      applied: winner !== null && request.apply === true,
    };
  }
}

export const hypothesis = (name: string, path = 'calc.py'): Hypothesis => ({
  name,
  edits: [{ path, content: `# ${name}\n` }],
  delete: [],
});

export const candidate = (name: string, submittedAt = new Date(0)): CandidateHypothesis => ({
  hypothesis: hypothesis(name),
  origin: 'external',
  author: 'token:t',
  submittedAt,
});

export function fixedClock(now: Date) {
  return { now: () => now, monotonicMs: () => now.getTime() };
}

export function loopDeps(
  overrides: Partial<LoopDeps> & Pick<LoopDeps, 'store' | 'fixer'>,
): LoopDeps {
  const workspace = new FakeWorkspace();
  return {
    workspaces: fakeWorkspaces(workspace),
    shadows: new FakeShadows(),
    clock: fixedClock(new Date(1000)),
    buildReview: ({ diff }) => ({
      bytes: diff,
      sha256: 'f'.repeat(64),
      flags: {} as ReviewArtifact['flags'],
    }),
    outputFlushMs: 1,
    ...overrides,
  };
}

/** A setup that plans `plan` and reports `result`, recording what it was asked. */
export class FakeSetup implements SetupPort {
  readonly runs: SetupPlan[] = [];

  constructor(
    private readonly plan_: SetupPlan = {
      commands: [['npm', 'ci']],
      detected: true,
      reasons: ['package-lock.json → npm ci'],
      outputs: ['node_modules'],
      env: {},
    },
    private readonly result: Partial<SetupRunResult> = {},
  ) {}

  plan(): Promise<SetupPlan> {
    return Promise.resolve(this.plan_);
  }

  run(
    _task: unknown,
    _workspace: unknown,
    plan: SetupPlan,
    io: { readonly onLine: (line: string) => void },
  ): Promise<SetupRunResult> {
    this.runs.push(plan);
    io.onLine('added 1 package');
    return Promise.resolve({
      ok: true,
      cached: false,
      durationMs: 1200,
      egress: [{ host: 'registry.npmjs.org', port: 443, allowed: true, count: 2 }],
      failedCommand: null,
      exitCode: 0,
      timedOut: false,
      outputTail: 'added 1 package\n',
      error: null,
      ...this.result,
    });
  }
}
