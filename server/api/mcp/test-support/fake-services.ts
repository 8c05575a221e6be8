import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FakeTaskService } from '../../http/test-support/fake-tasks';
import { createFakeBatches, type FakeBatchService } from '../../rest/test-support/fake-batches';
import { FakeReviewService } from '../../rest/test-support/fake-reviews';
import type { ShadowRunReport, ShadowRunRequest, ShadowEvent } from '../../../engine/shadow';
import type { ShadowMode } from '../../../engine/shadow/executor';
import type { McpServices, McpShadowRunner, McpShadows } from '../tool-context';

export const cannedReport: ShadowRunReport = {
  mode: 'overlay',
  winner: 'plus',
  winnerDiff: '--- a/calc.py\n+++ b/calc.py\n@@ -1 +1 @@\n-a - b\n+a + b\n',
  hypotheses: [
    {
      name: 'plus',
      rank: 1,
      exitCode: 0,
      signal: null,
      timedOut: false,
      durationMs: 420,
      passed: 2,
      failed: 0,
      skipped: 0,
      parsed: true,
      buildFailed: false,
      cases: [
        { id: 'test_calc.py::test_add', status: 'passed' },
        { id: 'test_calc.py::test_sub', status: 'passed' },
      ],
      tests: null,
      disqualified: null,
      changedLines: 2,
      outputTail: '2 passed\n',
      error: null,
    },
    {
      name: 'mul',
      rank: 2,
      exitCode: 1,
      signal: null,
      timedOut: false,
      durationMs: 430,
      passed: 0,
      failed: 2,
      skipped: 0,
      parsed: true,
      buildFailed: false,
      cases: [
        { id: 'test_calc.py::test_add', status: 'failed' },
        { id: 'test_calc.py::test_sub', status: 'failed' },
      ],
      tests: null,
      disqualified: '2 tests failed',
      changedLines: 2,
      outputTail: 'AssertionError: assert 6 == 5\n2 failed\n',
      error: null,
    },
  ],
  applied: false,
};

/** A shadow runner that records requests and answers `report`, emitting a finish per hypothesis. */
export class FakeShadowRunner implements McpShadowRunner {
  readonly requests: ShadowRunRequest[] = [];
  report: ShadowRunReport = cannedReport;
  /** When set, `run` waits until the request's signal aborts (then answers as usual). */
  hang = false;

  constructor(
    readonly mode: ShadowMode = 'overlay',
    readonly fallbackReason: string | null = null,
  ) {}

  async run(
    request: ShadowRunRequest,
    events?: { emit(event: ShadowEvent): void },
  ): Promise<ShadowRunReport> {
    this.requests.push(request);
    if (this.hang) {
      await new Promise((resolve) => {
        request.signal?.addEventListener('abort', resolve);
      });
    }
    for (const result of this.report.hypotheses) {
      events?.emit({ type: 'hypothesis.finished', result });
    }
    return this.report;
  }
}

export interface FakeServices extends McpServices {
  readonly tasks: FakeTaskService;
  readonly reviews: FakeReviewService;
  readonly batches: FakeBatchService;
  readonly runner: FakeShadowRunner;
  /** Where task worktrees are (none exists until a test makes one). */
  readonly worktrees: string;
  dispose(): Promise<void>;
}

export async function createFakeServices(
  options: { readonly runner?: FakeShadowRunner; readonly tasks?: FakeTaskService } = {},
): Promise<FakeServices> {
  const runner = options.runner ?? new FakeShadowRunner();
  const worktrees = await mkdtemp(path.join(os.tmpdir(), 'sbx-mcp-worktrees-'));
  const shadows: McpShadows = {
    runner: () => Promise.resolve(runner),
    worktreeOf: (taskId) => path.join(worktrees, taskId),
  };
  const tasks = options.tasks ?? new FakeTaskService();
  return {
    tasks,
    reviews: new FakeReviewService(tasks),
    batches: createFakeBatches(),
    shadows,
    runner,
    worktrees,
    dispose: () => rm(worktrees, { recursive: true, force: true }),
  };
}
