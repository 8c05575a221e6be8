import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { TaskView } from '../../tasks/task-api';
import { taskViewSchema } from './view-schemas';

type Parsed = z.output<typeof taskViewSchema>;
type Step = Parsed['plan'][number];
type Gate = Step['gates'][number];
type Hypothesis = Parsed['iterations'][number]['hypotheses'][number];
type TaskHypothesis = TaskView['iterations'][number]['hypotheses'][number];

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
  hypothesesPerIteration: 2,
  baseline: {
    passed: 1,
    failed: 1,
    skipped: 0,
    exitCode: 1,
    durationMs: 420,
    parsed: true,
    outputTail: '1 failed',
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
        },
      ],
    },
  ],
  pendingHypotheses: [],
  diffSha256: 'f'.repeat(64),
  approvedDiffSha256: null,
  error: null,
  lastEventId: 12,
  createdAt: '2026-11-02T10:00:00.000Z',
  updatedAt: '2026-11-02T10:05:00.000Z',
  fixer: 'llm',
  allowTestEdits: true,
  limits: { maxMemoryMb: 512, maxPids: null, maxDiskMb: null },
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
};

describe('taskViewSchema', () => {
  it('has exactly the fields of TaskView, down to the gates', () => {
    expectTypeOf<keyof Parsed>().toEqualTypeOf<keyof TaskView>();
    expectTypeOf<keyof Parsed['spend']>().toEqualTypeOf<keyof TaskView['spend']>();
    expectTypeOf<keyof Step>().toEqualTypeOf<keyof TaskView['plan'][number]>();
    expectTypeOf<keyof Gate>().toEqualTypeOf<keyof TaskView['plan'][number]['gates'][number]>();
    expectTypeOf<keyof NonNullable<Gate['lastRun']>>().toEqualTypeOf<
      keyof NonNullable<TaskView['plan'][number]['gates'][number]['lastRun']>
    >();
    expectTypeOf<keyof Parsed['reviewComments'][number]>().toEqualTypeOf<
      keyof TaskView['reviewComments'][number]
    >();
    expectTypeOf<keyof Hypothesis>().toEqualTypeOf<keyof TaskHypothesis>();
    expectTypeOf<keyof NonNullable<Hypothesis['tests']>>().toEqualTypeOf<
      keyof NonNullable<TaskHypothesis['tests']>
    >();
    expectTypeOf<keyof NonNullable<Parsed['baseline']>>().toEqualTypeOf<
      keyof NonNullable<TaskView['baseline']>
    >();
    expectTypeOf<keyof NonNullable<Parsed['setup']>>().toEqualTypeOf<
      keyof NonNullable<TaskView['setup']>
    >();
    expectTypeOf<keyof NonNullable<Parsed['setup']>['egress'][number]>().toEqualTypeOf<
      keyof NonNullable<TaskView['setup']>['egress'][number]
    >();
    expectTypeOf<Parsed>().toExtend<TaskView>();
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
