import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import type { Actor, TaskView } from '../../tasks/task-api';
import { loadTaskView } from '../../tasks/task-views';
import { diffFlags } from '../../engine/review';
import { diffViewSchema, taskViewSchema } from './view-schemas';

/**
 * A view with every optional part filled in: an LLM task with a setup, a plan, a partial fix with
 * its tests by id, and a model's comment.
 */
const view: TaskView = {
  id: 'c0123456789abcdef01234567',
  status: 'awaiting_review',
  source: { kind: 'git', url: 'https://example.com/repo.git', ref: 'main' },
  testCommand: ['pytest', '-q'],
  maxIterations: 3,
  title: 'The mean of [1, 2] is 1.5',
  problem: '`mean([1, 2])` returns 1 (integer division).',
  issueUrl: 'https://example.com/repo/issues/7',
  hypothesesPerIteration: 2,
  hypothesisWaitSecs: 600,
  reviewNowRequestedBy: null,
  knownFailureOffer: [],
  baseline: {
    passed: 1,
    failed: 1,
    skipped: 0,
    exitCode: 1,
    durationMs: 420,
    parsed: true,
    outputTail: '1 failed',
    readAs: 'by test id, from a JUnit report added to the command',
    buildFailed: false,
    failingTests: ['tests/test_calc.py::test_mean'],
    green: false,
  },
  iterations: [
    {
      index: 1,
      status: 'done',
      winner: 'fix-mean',
      checkpointSha: 'b'.repeat(40),
      hypotheses: [
        {
          name: 'fix-mean',
          origin: 'llm',
          rank: 1,
          verdict: 'winner',
          passed: 2,
          failed: 0,
          skipped: 0,
          exitCode: 0,
          timedOut: false,
          durationMs: 400,
          changedLines: 2,
          mode: 'overlay',
          outputTail: '2 passed',
          readAs: 'by test id, from a JUnit report added to the command',
          error: null,
          buildFailed: false,
          tests: {
            fixed: ['tests/test_calc.py::test_mean'],
            broken: [],
            stillFailing: [],
            missing: [],
            added: [],
            byId: true,
            counts: { fixed: 1, broken: 0, stillFailing: 0, missing: 0, added: 0 },
          },
          disqualified: null,
          sameTreeAs: null,
        },
      ],
    },
  ],
  pendingHypotheses: [],
  diffSha256: 'f'.repeat(64),
  approvedDiffSha256: null,
  error: null,
  lastEventId: 12,
  workerId: null,
  createdAt: '2026-11-02T10:00:00.000Z',
  updatedAt: '2026-11-02T10:05:00.000Z',
  fixer: 'llm',
  allowTestEdits: true,
  limits: { maxMemoryMb: 512, maxPids: null, maxDiskMb: null, maxInodes: null },
  spend: { tokens: 1234, costMicroUsd: 2600, maxTokens: 200_000 },
  plan: [
    {
      index: 1,
      title: 'Fix add',
      scope: 'src/calc.py',
      status: 'done',
      doneAt: '2026-11-02T10:04:00.000Z',
      gates: [
        {
          argv: ['pytest', '-q', 'tests/test_add.py'],
          lastRun: {
            green: true,
            exitCode: 0,
            commitSha: 'a'.repeat(40),
            at: '2026-11-02T10:03:00.000Z',
            current: true,
          },
        },
      ],
    },
    { index: 2, title: 'Docs', scope: '', status: 'open', doneAt: null, gates: [] },
  ],
  reviewComments: [
    {
      reviewer: 'model-x',
      verdict: 'concerns',
      comment: 'Edits a test.',
      diffSha256: 'f'.repeat(64),
    },
  ],
  setupCommands: null,
  buildCommand: ['python3', '-m', 'compileall', '-q', '.'],
  knownFailures: ['tests/test_net.py::test_download'],
  setup: {
    commands: [['pip', 'install', '-r', 'requirements.txt']],
    detected: true,
    reasons: ['requirements.txt → pip install -r requirements.txt'],
    cached: false,
    durationMs: 5300,
    egress: [
      { host: 'pypi.org', port: 443, allowed: true, count: 3 },
      {
        host: 'downloads.example.com',
        port: 443,
        allowed: false,
        reason: 'not on the allowlist',
        count: 1,
      },
    ],
    env: { PIP_CACHE_DIR: '.cache/pip' },
  },
  reviewPartial: true,
  stillFailing: ['tests/test_calc.py::test_median'],
  owner: 'alice',
  team: 'core',
  decision: {
    verdict: 'reject',
    by: 'rita',
    at: '2026-11-02T10:04:00.000Z',
    sha256: 'e'.repeat(64),
  },
  // What a reviewer may do to a task under review: new hypotheses, give the fix up, review it.
  review: {
    round: 0,
    maxRounds: 5,
    state: 'none',
    summary: null,
    changesRequestedBy: [],
    openThreads: [],
    outdatedThreads: 0,
    resolvedThreads: 0,
  },
  can: {
    submit: true,
    cancel: false,
    rollback: true,
    review: true,
    comment: true,
    reopen: false,
    push: false,
    sendToReview: false,
    acceptKnownFailures: false,
  },
};

/** A reviewer of the task's team (not its owner), who may review it now and nothing else. */
const rita: Actor = {
  kind: 'user',
  person: {
    id: 'user-rita',
    username: 'rita',
    role: 'reviewer',
    teams: [{ teamId: 'team-core', role: 'reviewer' }],
  },
};

const at = (iso: string): Date => new Date(iso);

/** The rows `loadTaskView` reads for `view` (what Prisma answers, Json columns as values). */
const taskRow = {
  id: view.id,
  status: view.status,
  sourceKind: 'git',
  sourceUrl: 'https://example.com/repo.git',
  sourceRef: 'main',
  archiveName: null,
  testCommand: ['pytest', '-q'],
  maxIterations: 3,
  hypothesesPerIteration: 2,
  title: view.title,
  problem: view.problem,
  issueUrl: view.issueUrl,
  hypothesisWaitMs: 600_000,
  reviewNowRequestedBy: null,
  baselineCommit: 'b'.repeat(40),
  checkpointSha: 'a'.repeat(40),
  diffSha256: view.diffSha256,
  approvedDiffSha256: null,
  error: null,
  lastEventId: 12,
  workerId: null,
  createdAt: at(view.createdAt),
  updatedAt: at(view.updatedAt),
  fixer: 'llm',
  allowTestEdits: true,
  maxMemoryMb: 512,
  maxPids: null,
  maxDiskMb: null,
  maxInodes: null,
  tokensUsed: 1234,
  costMicroUsd: 2600,
  reviewRounds: 0,
  maxTokens: 200_000,
  setupCommands: null,
  buildCommand: view.buildCommand,
  knownFailures: view.knownFailures,
  setup: view.setup,
  reviewPartial: true,
  stillFailing: view.stillFailing,
  runs: [
    {
      passed: 1,
      failed: 1,
      skipped: 0,
      exitCode: 1,
      timedOut: false,
      durationMs: 420,
      parsed: true,
      buildFailed: false,
      cases: [
        { id: 'tests/test_calc.py::test_add', status: 'passed' },
        { id: 'tests/test_calc.py::test_mean', status: 'failed' },
      ],
      outputTail: '1 failed',
      readAs: 'by test id, from a JUnit report added to the command',
      error: null,
    },
  ],
  iterations: view.iterations.map(({ hypotheses, ...iteration }) => ({
    ...iteration,
    hypotheses: hypotheses.map((h) => ({
      name: h.name,
      origin: h.origin,
      rank: h.rank,
      verdict: h.verdict,
      changedLines: h.changedLines,
      error: null,
      sameTreeAs: h.sameTreeAs,
      runs: [
        {
          passed: h.passed,
          failed: h.failed,
          skipped: h.skipped,
          exitCode: h.exitCode,
          timedOut: h.timedOut,
          durationMs: h.durationMs,
          mode: h.mode,
          outputTail: h.outputTail,
          readAs: h.readAs ?? null,
          error: null,
          buildFailed: h.buildFailed,
          tests: h.tests,
          disqualified: h.disqualified,
        },
      ],
    })),
  })),
  hypotheses: [],
  reviews: [
    {
      reviewer: 'rita',
      verdict: 'reject',
      comment: 'Not this way.',
      diffSha256: 'e'.repeat(64),
      createdAt: at('2026-11-02T10:04:00.000Z'),
    },
    ...view.reviewComments.map((comment) => ({
      ...comment,
      createdAt: at('2026-11-02T10:04:30.000Z'),
    })),
  ],
  ownerId: 'user-alice',
  owner: { username: 'alice' },
  teamId: 'team-core',
  team: { name: 'core' },
  cancelRequestedBy: null,
};

const planRows = view.plan.map((step) => ({
  index: step.index,
  title: step.title,
  scope: step.scope,
  status: step.status,
  doneAt: step.doneAt === null ? null : at(step.doneAt),
  gates: step.gates.map((gate) => gate.argv),
  runs: step.gates.flatMap((gate, gateIndex) =>
    gate.lastRun === null
      ? []
      : [
          {
            gateIndex,
            exitCode: gate.lastRun.exitCode,
            timedOut: false,
            error: null,
            parsed: true,
            failed: 0,
            commitSha: gate.lastRun.commitSha,
            createdAt: at(gate.lastRun.at),
          },
        ],
  ),
}));

/** Answers the task's row (or, for the plan, its checkpoint) and the plan's steps. */
const fakeDb = {
  task: {
    findUnique: (query: { select?: unknown }) =>
      Promise.resolve(query.select === undefined ? taskRow : { checkpointSha: 'a'.repeat(40) }),
  },
  planStep: { findMany: () => Promise.resolve(planRows) },
  // No winner's run: nothing to offer as a known failure.
  run: { findFirst: () => Promise.resolve(null) },
  review: { findMany: () => Promise.resolve([]) },
  reviewThread: { findMany: () => Promise.resolve([]), groupBy: () => Promise.resolve([]) },
} as unknown as Db;

describe('taskViewSchema', () => {
  it('round-trips a full view as the services load it, unchanged', async () => {
    const loaded = await loadTaskView(fakeDb, view.id, rita);
    expect(loaded).toEqual(view);
    expect(taskViewSchema.parse(loaded)).toStrictEqual(loaded);
  });

  it('passes a full view through without stripping anything', () => {
    expect(taskViewSchema.parse(view)).toEqual(view);
  });

  it('keeps a refused host without a reason as it is (the reason is optional)', () => {
    const setup = view.setup!;
    const egress = [{ host: 'a.example', port: 80, allowed: false, count: 2 }];
    const parsed = taskViewSchema.parse({ ...view, setup: { ...setup, egress } });
    expect(parsed.setup?.egress).toEqual(egress);
  });

  it('refuses a step status it does not know', () => {
    const bad = { ...view, plan: [{ ...view.plan[0], status: 'skipped' }] };
    expect(taskViewSchema.safeParse(bad).success).toBe(false);
  });
});

describe('diffViewSchema', () => {
  it('keeps the rule a framework-reach flag names, for the review page', () => {
    const flags = diffFlags(
      [
        'diff --git a/calc.py b/calc.py',
        '--- a/calc.py',
        '+++ b/calc.py',
        '@@ -1,2 +1,4 @@',
        '+import os',
        '+os._exit(0)',
        ' def add(a, b):',
        '     return a + b',
        '',
      ].join('\n'),
    );
    const parsed = diffViewSchema.parse({ diff: '', sha256: 'a'.repeat(64), flags });
    expect(parsed.flags.testEdits).toEqual([
      {
        path: 'calc.py',
        kind: 'test-framework',
        rule: 'python-os-exit',
        line: 2,
        what: "calc.py:2 exits the interpreter at once (no cleanup, no report) (rule python-os-exit): 'os._exit(0)'",
      },
    ]);
  });
});
