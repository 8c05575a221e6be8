import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors/app-error';
import { describeError } from '../../jobs';
import { createExternalFixer, createScriptedFixer, type Fixer, type ReviewRequest } from './fixer';
import { stepTask, abandonTask, type LoopDeps, type StepOutcome } from './task-step';
import {
  FakeSetup,
  FakeShadows,
  FakeWorkspace,
  MemoryLoopStore,
  candidate,
  fakeWorkspaces,
  fixedClock,
  hypothesis,
  loopDeps,
} from './test-support/fake-loop';

const signal = new AbortController().signal;

/** Steps until the loop stops asking to continue. */
async function drive(deps: LoopDeps, limit = 20): Promise<StepOutcome> {
  for (let i = 0; i < limit; i++) {
    const outcome = await stepTask(deps, 'task1', signal);
    if (outcome.kind !== 'continue') return outcome;
  }
  throw new Error('the loop did not settle');
}

describe('stepTask', () => {
  it('takes a task from queued to review: baseline, a red iteration, a green one', async () => {
    const store = new MemoryLoopStore();
    const workspace = new FakeWorkspace();
    const shadows = new FakeShadows();
    const fixer = createScriptedFixer([[hypothesis('wrong')], [hypothesis('right', 'src/a.py')]]);
    const deps = loopDeps({ store, fixer, shadows, workspaces: fakeWorkspaces(workspace) });

    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.state.status).toBe('awaiting_review');
    expect(store.types()).toEqual([
      'task.preparing',
      'workspace.ready',
      'baseline.started',
      'baseline.finished',
      'iteration.started',
      'iteration.running',
      'iteration.finished',
      'iteration.started',
      'iteration.running',
      'iteration.finished',
      'review.ready',
    ]);
    // Only the winner's own files are committed, and the review is baseline..checkpoint.
    expect(workspace.log.filter((l) => l.startsWith('checkpoint'))).toEqual([
      'checkpoint Iteration 2: right [src/a.py]',
    ]);
    expect(store.reviews[0]?.bytes.toString()).toBe(`diff base..c100\n`);
    expect(shadows.requests.map((r) => r.apply ?? false)).toEqual([false, true, true]);
  });

  it('rolls back to the baseline and fails when no hypothesis passes within the budget', async () => {
    const store = new MemoryLoopStore({ maxIterations: 2 });
    const workspace = new FakeWorkspace();
    const fixer = createScriptedFixer([[hypothesis('wrong-1')], [hypothesis('wrong-2')]]);
    const deps = loopDeps({ store, fixer, workspaces: fakeWorkspaces(workspace) });

    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.state.status).toBe('failed');
    expect(store.types().slice(-2)).toEqual(['task.rolled_back', 'task.failed']);
    expect(store.events.at(-1)).toMatchObject({
      reason: expect.stringMatching(/2 iteration/) as string,
    });
    expect(store.task.checkpointSha).toBe(store.task.baselineCommit);
  });

  it('parks until the deadline while it waits for external hypotheses, then runs them', async () => {
    const store = new MemoryLoopStore({ hypothesesPerIteration: 2, hypothesisWaitMs: 60_000 });
    const clock = fixedClock(new Date(5_000));
    const deps = loopDeps({ store, fixer: createExternalFixer({ gatherMs: 1000 }), clock });

    expect(await drive(deps)).toEqual({ kind: 'park', until: new Date(60_000) });
    expect(store.state.status).toBe('awaiting_hypotheses');

    store.inbox.push(candidate('wrong', new Date(4_500)));
    // One of two arrived 500 ms ago: gather the rest for another 500 ms.
    expect(await drive(deps)).toEqual({ kind: 'park', until: new Date(5_500) });

    store.inbox.push(candidate('right', new Date(4_900)));
    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.state.status).toBe('awaiting_review');
  });

  it('gives up with a clear reason when nothing arrives before the deadline', async () => {
    const store = new MemoryLoopStore({ hypothesisWaitMs: 1000 });
    const deps = loopDeps({
      store,
      fixer: createExternalFixer({ gatherMs: 100 }),
      clock: fixedClock(new Date(2000)),
    });
    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.state.status).toBe('failed');
    expect(store.events.at(-1)).toMatchObject({
      reason: expect.stringMatching(/no hypothesis arrived/) as string,
    });
  });

  it('ends a task cancelled mid-run: the run is aborted, the worktree rolled back', async () => {
    const store = new MemoryLoopStore();
    const workspace = new FakeWorkspace();
    const deps = loopDeps({
      store,
      fixer: createScriptedFixer([[hypothesis('slow')]]),
      workspaces: fakeWorkspaces(workspace),
    });
    for (let i = 0; i < 3; i++) await stepTask(deps, 'task1', signal); // through the baseline
    expect(store.state.status).toBe('iterating');

    const controller = new AbortController();
    const step = stepTask(deps, 'task1', controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    store.task = { ...store.task, cancelRequestedBy: 'token:t' };
    controller.abort();
    expect(await step).toEqual({ kind: 'done' });
    expect(store.state.status).toBe('cancelled');
    expect(workspace.log.at(-1)).toBe(`rollback ${store.task.baselineCommit?.slice(0, 4) ?? ''}`);
  });

  it('a step cut short without a cancel (shutdown) asks to run again', async () => {
    const store = new MemoryLoopStore();
    const deps = loopDeps({ store, fixer: createScriptedFixer([[hypothesis('slow')]]) });
    for (let i = 0; i < 3; i++) await stepTask(deps, 'task1', signal);
    const controller = new AbortController();
    const step = stepTask(deps, 'task1', controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    expect(await step).toEqual({ kind: 'continue' });
    expect(store.state.status).toBe('iterating');
  });

  it('resumes an iteration a crash interrupted: back to the checkpoint, same hypotheses again', async () => {
    const store = new MemoryLoopStore();
    const workspace = new FakeWorkspace();
    const shadows = new FakeShadows();
    const deps = loopDeps({
      store,
      shadows,
      fixer: createScriptedFixer([[hypothesis('right')]]),
      workspaces: fakeWorkspaces(workspace),
    });
    for (let i = 0; i < 3; i++) await stepTask(deps, 'task1', signal);
    // As if a step had taken the hypotheses and died before recording the iteration.
    await store.takeHypotheses('task1', 1, [candidate('right-again')]);

    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.types()).toContain('task.resumed');
    expect(workspace.log).toContain(`rollback ${store.task.baselineCommit?.slice(0, 4) ?? ''}`);
    expect(shadows.requests.at(-1)?.hypotheses.map((h) => h.name)).toEqual(['right-again']);
    expect(store.state.status).toBe('awaiting_review');
  });

  it('fails without touching a worktree when intake refuses the source', async () => {
    const store = new MemoryLoopStore({ source: { kind: 'git', url: 'https://x/y', ref: null } });
    const workspace = new FakeWorkspace();
    const deps = loopDeps({
      store,
      fixer: createScriptedFixer([]),
      workspaces: fakeWorkspaces(workspace, { code: 'GIT_TOO_LARGE', message: 'too big' }),
    });
    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.state.status).toBe('failed');
    expect(store.events.at(-1)).toMatchObject({ reason: 'GIT_TOO_LARGE: too big' });
    expect(workspace.log).toEqual([]);
  });

  it('spends the wall-clock budget: the task fails at the next step', async () => {
    const store = new MemoryLoopStore({ maxWallClockMs: 1000 });
    const clock = { now: () => new Date(10_000), monotonicMs: () => 0 };
    const deps = loopDeps({ store, fixer: createScriptedFixer([]), clock });
    await stepTask(deps, 'task1', signal); // queued → preparing, startedAt = 10 s
    store.task = { ...store.task, startedAt: new Date(0) };
    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.events.at(-1)).toMatchObject({
      type: 'task.failed',
      reason: expect.stringMatching(/wall-clock/) as string,
    });
  });

  it('new hypotheses after review take the task back to work', async () => {
    const store = new MemoryLoopStore();
    const deps = loopDeps({ store, fixer: createExternalFixer({ gatherMs: 0 }) });
    store.inbox.push(candidate('right'));
    await drive(deps);
    expect(store.state.status).toBe('awaiting_review');

    store.inbox.push(candidate('wrong-later'));
    expect(await drive(deps)).toEqual({ kind: 'park', until: expect.any(Date) as Date });
    expect(store.state).toMatchObject({ status: 'awaiting_hypotheses', approvedDiffSha256: null });
  });

  it('an approved task takes no new iteration; its hypotheses wait for a reviewer to reopen it', async () => {
    const store = new MemoryLoopStore();
    const deps = loopDeps({ store, fixer: createExternalFixer({ gatherMs: 0 }) });
    store.inbox.push(candidate('right'));
    await drive(deps);
    expect(store.state.status).toBe('awaiting_review');
    const sha256 = 'f'.repeat(64);
    await store.emit('task1', { type: 'task.approved', sha256, by: 'rita (token:r)' });

    // Queued before the approval landed (a race with the reviewer): they do not reopen it.
    store.inbox.push(candidate('wrong-later'));
    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.state).toMatchObject({ status: 'approved', approvedDiffSha256: sha256 });

    // A reviewer's reopen withdraws the approval; then the waiting hypotheses run.
    await store.emit('task1', { type: 'task.reopened', sha256, by: 'rita' });
    expect(store.state).toMatchObject({ status: 'awaiting_review', approvedDiffSha256: null });
    expect(await drive(deps)).toEqual({ kind: 'park', until: expect.any(Date) as Date });
    expect(store.state).toMatchObject({ status: 'awaiting_hypotheses', approvedDiffSha256: null });
  });

  it('a hypothesis that edits tests ranks last and cannot win unless the task allows it', async () => {
    const store = new MemoryLoopStore({ maxIterations: 1 });
    const shadows = new FakeShadows();
    const cheat = hypothesis('right-but-edits-tests', 'tests/test_calc.py');
    const deps = loopDeps({ store, shadows, fixer: createScriptedFixer([[cheat]]) });
    await drive(deps);
    expect([...(shadows.requests.at(-1)?.demote?.keys() ?? [])]).toEqual(['right-but-edits-tests']);
    expect(shadows.requests.at(-1)?.demote?.get('right-but-edits-tests')).toMatch(
      /^it edits tests, which this task does not allow \(/,
    );
    expect(store.state.status).toBe('failed');

    const allowed = new MemoryLoopStore({ maxIterations: 1, allowTestEdits: true });
    await drive(loopDeps({ store: allowed, fixer: createScriptedFixer([[cheat]]) }));
    expect(allowed.state.status).toBe('awaiting_review');
  });

  it("uses the task's own fixer, records its spend, and fails clearly when it is missing", async () => {
    const store = new MemoryLoopStore({ fixer: 'llm', maxTokens: 1000 });
    const asked: (number | null)[] = [];
    const llm: Fixer = {
      name: 'llm',
      decide: (request) => {
        asked.push(request.tokensLeft);
        return Promise.resolve({
          kind: 'run',
          hypotheses: [candidate('right-from-model')],
          rejected: [{ name: 'sample-2', origin: 'llm', reason: 'the answer was not valid JSON' }],
          spend: { tokens: 300, costMicroUsd: 45 },
        });
      },
    };
    await drive(loopDeps({ store, fixer: createScriptedFixer([]), fixers: { llm } }));
    expect(asked).toEqual([1000]);
    expect(store.types()).toContain('fixer.spent');
    expect(store.task.tokensUsed).toBe(300);
    expect(store.events.find((e) => e.type === 'iteration.finished')).toMatchObject({
      rejected: [{ name: 'sample-2', reason: 'the answer was not valid JSON' }],
    });

    const orphan = new MemoryLoopStore({ fixer: 'llm' });
    await drive(loopDeps({ store: orphan, fixer: createScriptedFixer([]) }));
    expect(orphan.events.at(-1)).toMatchObject({
      reason: "this server has no 'llm' fixer configured",
    });
  });

  it('a reviewer model comments on the diff under review; its failure is a comment, not a fault', async () => {
    const store = new MemoryLoopStore();
    const reviewer = {
      name: 'critic',
      review: () =>
        Promise.resolve({
          verdict: 'concerns',
          comment: 'the fix divides by zero on an empty list',
          spend: { tokens: 50, costMicroUsd: 1 },
        }),
    };
    store.inbox.push(candidate('right'));
    await drive(loopDeps({ store, fixer: createExternalFixer({ gatherMs: 0 }), reviewer }));
    expect(store.state.status).toBe('awaiting_review');
    expect(store.comments).toEqual([
      expect.objectContaining({ reviewer: 'model:critic', verdict: 'concerns' }),
    ]);

    const broken = new MemoryLoopStore();
    broken.inbox.push(candidate('right'));
    const failing = { name: 'down', review: () => Promise.reject(new Error('connection refused')) };
    await drive(
      loopDeps({ store: broken, fixer: createExternalFixer({ gatherMs: 0 }), reviewer: failing }),
    );
    expect(broken.state.status).toBe('awaiting_review');
    expect(broken.comments[0]?.comment).toMatch(/the review model failed: connection refused/);
  });

  it("gives the fixer, the patch mail and the reviewer model the task's title, problem and issue link", async () => {
    const brief = {
      title: 'mean() floors the average',
      problem: 'mean([1, 2]) returns 1',
      issueUrl: 'https://example.com/issues/7',
    };
    const store = new MemoryLoopStore({ ...brief, fixer: 'llm' });
    const fixerSaw: unknown[] = [];
    const llm: Fixer = {
      name: 'llm',
      decide: (request) => {
        fixerSaw.push(request.task);
        return Promise.resolve({ kind: 'run', hypotheses: [candidate('right')] });
      },
    };
    const mails: { subject: string; body: string }[] = [];
    const reviewerSaw: unknown[] = [];
    const reviewer = {
      name: 'critic',
      review: (input: { task: unknown }) => {
        reviewerSaw.push(input.task);
        return Promise.resolve({
          verdict: 'looks_good',
          comment: 'ok',
          spend: { tokens: 0, costMicroUsd: 0 },
        });
      },
    };
    const base = loopDeps({ store, fixer: createScriptedFixer([]), fixers: { llm }, reviewer });
    await drive({
      ...base,
      buildReview: (input) => {
        mails.push({ subject: input.subject, body: input.body });
        return base.buildReview(input);
      },
    });
    expect(store.state.status).toBe('awaiting_review');
    expect(fixerSaw).toEqual([brief]);
    expect(reviewerSaw).toEqual([brief]);
    expect(mails).toEqual([
      {
        subject: 'mean() floors the average',
        body: 'mean([1, 2]) returns 1\n\nFound by Shadowbox (task task1) in 1 iteration(s); tested with: pytest\n\nIssue: https://example.com/issues/7',
      },
    ]);
  });

  it('an iteration whose samples were all rejected is red, with the reasons kept', async () => {
    const store = new MemoryLoopStore({ fixer: 'llm', maxIterations: 1 });
    const shadows = new FakeShadows();
    const llm: Fixer = {
      name: 'llm',
      decide: () =>
        Promise.resolve({
          kind: 'run',
          hypotheses: [],
          rejected: [{ name: 'llm-1-1', origin: 'llm', reason: 'not JSON' }],
        }),
    };
    await drive(loopDeps({ store, shadows, fixer: createScriptedFixer([]), fixers: { llm } }));
    expect(shadows.requests.filter((r) => r.apply === true)).toEqual([]);
    expect(store.events.find((e) => e.type === 'iteration.finished')).toMatchObject({
      green: false,
      rejected: [{ name: 'llm-1-1', reason: 'not JSON' }],
    });
    expect(store.state.status).toBe('failed');
  });

  /** A task two steps in (past its baseline commit), with a workspace whose faults a test sets. */
  async function activeTask() {
    const store = new MemoryLoopStore();
    const workspace = new FakeWorkspace();
    const deps = loopDeps({
      store,
      fixer: createScriptedFixer([]),
      workspaces: fakeWorkspaces(workspace),
    });
    for (let i = 0; i < 2; i++) await stepTask(deps, 'task1', signal);
    return { store, workspace, deps };
  }

  it('abandonTask ends an active task as interrupted, rolled back', async () => {
    const { store, deps } = await activeTask();
    await abandonTask(deps, 'task1', 'disk gone');
    expect(store.state.status).toBe('interrupted');
    expect(store.types().slice(-2)).toEqual(['task.rolled_back', 'task.interrupted']);
  });

  it('abandonTask still ends the task when its worktree cannot be rolled back, and says so', async () => {
    const { store, workspace, deps } = await activeTask();
    // The fault that failed the steps fails the rollback too: a give-up that threw here would be
    // retried by the queue for ever.
    workspace.rollbackTo = () => Promise.reject(new Error('index.lock exists'));
    await abandonTask(deps, 'task1', 'the task could not go on: index.lock exists');
    expect(store.state.status).toBe('interrupted');
    expect(store.types()).not.toContain('task.rolled_back');
    expect(store.events.at(-1)).toEqual({
      type: 'task.interrupted',
      reason:
        'the task could not go on: index.lock exists; its worktree could not be rolled back to the baseline (index.lock exists)',
    });
  });

  it('abandonTask throws when the store cannot be written, for the give-up to be tried again', async () => {
    const { store, deps } = await activeTask();
    const emit = store.emit.bind(store);
    store.emit = (taskId, event, changes) =>
      event.type === 'task.rolled_back'
        ? Promise.reject(new Error('database is locked'))
        : emit(taskId, event, changes);
    await expect(abandonTask(deps, 'task1', 'disk gone')).rejects.toThrow('database is locked');
    expect(store.types()).not.toContain('task.interrupted');
  });

  it('a cancel whose rollback fails throws, for the queue to retry the step', async () => {
    const { store, workspace, deps } = await activeTask();
    workspace.rollbackTo = () => Promise.reject(new Error('index.lock exists'));
    store.task = { ...store.task, cancelRequestedBy: 'ada' };
    const before = store.state.status;
    await expect(stepTask(deps, 'task1', signal)).rejects.toThrow('index.lock exists');
    expect(store.state.status).toBe(before);
    expect(store.types()).not.toContain('task.cancelled');
  });

  it('stores a readable reason when a task is abandoned for a thrown error: no stack, no bundle path', async () => {
    const store = new MemoryLoopStore();
    const deps = loopDeps({ store, fixer: createScriptedFixer([]) });
    for (let i = 0; i < 2; i++) await stepTask(deps, 'task1', signal);
    // A real error with a real stack, thrown from a production bundle.
    const fault = new Error(
      "ENOTDIR: not a directory, open '/srv/shadowbox/.next/server/chunks/ssr/calc.js'",
    );
    fault.stack = `Error: ${fault.message}\n${(fault.stack ?? '').split('\n').slice(1).join('\n')}\n    at stepTask (webpack-internal:///(rsc)/./server/engine/loop/task-step.ts:97:10)\n    at async JobRunner.run (/srv/shadowbox/.next/server/chunks/[root-of-the-server]__0a1b._.js:4410:19)`;
    // The reason as the runtime's onGiveUp writes it when the job runner gives up.
    const reason = `the task could not go on: ${describeError(fault)}`;
    expect(reason).toMatch(/\n {4}at .*\.next\//);
    await abandonTask(deps, 'task1', reason);
    const stored = "the task could not go on: ENOTDIR: not a directory, open '…'";
    expect(store.task).toMatchObject({ error: stored });
    expect(store.events.at(-1)).toEqual({ type: 'task.interrupted', reason: stored });
  });

  it('stores the same readable reason when a give-up finishes after a restart (from the job record)', async () => {
    const store = new MemoryLoopStore();
    const deps = loopDeps({ store, fixer: createScriptedFixer([]) });
    for (let i = 0; i < 2; i++) await stepTask(deps, 'task1', signal);
    const fault = new AppError('INTERNAL', 'the worktree vanished');
    // The job runner turns the job's stored lastError (with frames) back into an Error.
    const again = new Error(describeError(fault));
    await abandonTask(deps, 'task1', `the task could not go on: ${describeError(again)}`);
    expect(store.task).toMatchObject({
      error: 'the task could not go on: the worktree vanished',
    });
  });
});

describe('stepTask: setup, baselines that tell nothing, partial fixes', () => {
  it('installs dependencies once before the baseline, shows the detected commands, keeps the record', async () => {
    const store = new MemoryLoopStore();
    const workspace = new FakeWorkspace();
    const setup = new FakeSetup();
    const fixer = createScriptedFixer([[hypothesis('right')]]);
    const deps = loopDeps({ store, fixer, setup, workspaces: fakeWorkspaces(workspace) });

    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.types().slice(0, 7)).toEqual([
      'task.preparing',
      'workspace.ready',
      'setup.started',
      'run.output',
      'setup.finished',
      'baseline.started',
      'baseline.finished',
    ]);
    expect(store.events[2]).toMatchObject({
      commands: [['npm', 'ci']],
      detected: true,
      reasons: ['package-lock.json → npm ci'],
    });
    expect(store.task.setup).toMatchObject({ cached: false, durationMs: 1200 });
    expect(setup.runs).toHaveLength(1);
    // Setup starts from a clean tree; the baseline then keeps what setup installed.
    expect(workspace.log.slice(0, 2)).toEqual(['rollback base (clean)', 'rollback base']);
  });

  it('a failed setup ends the task failed, naming the command and the refused hosts, and removes what it installed', async () => {
    const store = new MemoryLoopStore();
    const workspace = new FakeWorkspace();
    const setup = new FakeSetup(undefined, {
      ok: false,
      failedCommand: ['npm', 'ci'],
      exitCode: 1,
      egress: [
        { host: 'registry.npmjs.org', port: 443, allowed: true, count: 3 },
        {
          host: 'downloads.example.com',
          port: 443,
          allowed: false,
          reason: 'not on the allowlist',
          count: 1,
        },
      ],
    });
    const deps = loopDeps({
      store,
      fixer: createScriptedFixer([]),
      setup,
      workspaces: fakeWorkspaces(workspace),
    });

    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.state.status).toBe('failed');
    expect(store.events.at(-1)).toEqual({
      type: 'task.failed',
      reason: "setup 'npm ci' exited with 1; refused: downloads.example.com:443",
    });
    expect(store.types()).not.toContain('baseline.started');
    expect(workspace.log).toContain('rollback base (clean)');
  });

  it('a baseline that ran no tests ends the task: a zero-test run is never green', async () => {
    const store = new MemoryLoopStore();
    const shadows = new FakeShadows(false, {
      passed: 0,
      failed: 0,
      cases: [],
      exitCode: 0,
      outputTail: 'No tests were found!!!\n',
    });
    const deps = loopDeps({ store, fixer: createScriptedFixer([[hypothesis('right')]]), shadows });

    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.events.at(-1)).toEqual({
      type: 'task.failed',
      reason: 'the test command ran no tests',
    });
  });

  it('a baseline whose runner is not installed says which and asks about setup', async () => {
    const store = new MemoryLoopStore({ testCommand: ['npx', 'mocha'] });
    const shadows = new FakeShadows(false, {
      passed: 0,
      failed: 0,
      cases: [],
      parsed: false,
      exitCode: 127,
      outputTail: 'sh: 1: mocha: not found\n',
    });
    const deps = loopDeps({ store, fixer: createScriptedFixer([]), shadows });

    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.events.at(-1)).toEqual({
      type: 'task.failed',
      reason: 'mocha: not found — is a setup command missing?',
    });
  });

  it('a fix that leaves a failure failing goes to review marked partial, listing what still fails', async () => {
    const store = new MemoryLoopStore({ maxIterations: 1 });
    const workspace = new FakeWorkspace();
    const deps = loopDeps({
      store,
      fixer: createScriptedFixer([[hypothesis('wrong'), hypothesis('half', 'src/a.py')]]),
      workspaces: fakeWorkspaces(workspace),
    });

    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.state.status).toBe('awaiting_review');
    expect(store.reviewEvidence).toEqual([{ partial: true, stillFailing: ['t4'] }]);
    expect(workspace.log).toContain('checkpoint Iteration 1: half [src/a.py]');
  });

  it('a partial fix whose next iteration waits in vain goes to review partial, never interrupted or rolled back', async () => {
    // The path that lost a right fix: iteration 1 wins by id but leaves an environmental
    // failure; iteration 2 waits for hypotheses nobody sends; at the deadline the task took
    // 'review.ready' while awaiting hypotheses, which the lifecycle refused, and ended
    // interrupted, rolled back. A short wait reproduces it.
    const store = new MemoryLoopStore({ maxIterations: 2, hypothesisWaitMs: 1000 });
    const workspace = new FakeWorkspace();
    const deps = loopDeps({
      store,
      fixer: createExternalFixer({ gatherMs: 0 }),
      workspaces: fakeWorkspaces(workspace),
      clock: fixedClock(new Date(0)),
    });
    expect(await drive(deps)).toEqual({ kind: 'park', until: new Date(1000) });
    store.inbox.push({ ...candidate('half'), hypothesis: hypothesis('half', 'src/a.py') });
    expect(await drive(deps)).toEqual({ kind: 'park', until: new Date(1000) });
    expect(store.state.status).toBe('awaiting_hypotheses');
    expect(store.iterations).toHaveLength(2);

    // The deadline passes with nothing sent.
    expect(await drive({ ...deps, clock: fixedClock(new Date(5_000)) })).toEqual({ kind: 'done' });
    expect(store.state.status).toBe('awaiting_review');
    expect(store.reviewEvidence).toEqual([{ partial: true, stillFailing: ['t4'] }]);
    expect(store.types()).not.toContain('task.interrupted');
    expect(store.types()).not.toContain('task.rolled_back');
    expect(workspace.log).toContain('checkpoint Iteration 1: half [src/a.py]');
  });

  it('"send to review now" puts a waiting partial fix up for review at once, and a review clears the request', async () => {
    const store = new MemoryLoopStore({ maxIterations: 3, hypothesisWaitMs: 1_800_000 });
    const workspace = new FakeWorkspace();
    const deps = loopDeps({
      store,
      fixer: createExternalFixer({ gatherMs: 0 }),
      workspaces: fakeWorkspaces(workspace),
      clock: fixedClock(new Date(0)),
    });
    await drive(deps);
    store.inbox.push({ ...candidate('half'), hypothesis: hypothesis('half', 'src/a.py') });
    expect(await drive(deps)).toEqual({ kind: 'park', until: new Date(1_800_000) });
    expect(store.state.status).toBe('awaiting_hypotheses');

    // Long before the wait ends, the owner asks; the woken step does it, whatever the fixer says.
    store.task = { ...store.task, reviewNowRequestedBy: 'user:alice' };
    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.state.status).toBe('awaiting_review');
    expect(store.reviewEvidence).toEqual([{ partial: true, stillFailing: ['t4'] }]);
    expect(store.task.reviewNowRequestedBy).toBeNull();
    expect(store.types()).not.toContain('task.rolled_back');
  });

  it('"send to review now" with the failures left accepted as known: the review is complete', async () => {
    const store = new MemoryLoopStore({ maxIterations: 3 });
    const deps = loopDeps({
      store,
      fixer: createExternalFixer({ gatherMs: 0 }),
      clock: fixedClock(new Date(0)),
    });
    await drive(deps);
    store.inbox.push({ ...candidate('half'), hypothesis: hypothesis('half', 'src/a.py') });
    await drive(deps);
    store.task = { ...store.task, knownFailures: ['t4'], reviewNowRequestedBy: 'user:alice' };
    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.reviewEvidence).toEqual([{ partial: false, stillFailing: [] }]);
  });

  it('a request to stop waiting before any checkpoint waits on (nothing to review), never failing the task', async () => {
    const store = new MemoryLoopStore({ hypothesisWaitMs: 1000 });
    const deps = loopDeps({
      store,
      fixer: createExternalFixer({ gatherMs: 0 }),
      clock: fixedClock(new Date(0)),
    });
    await drive(deps);
    store.task = { ...store.task, reviewNowRequestedBy: 'user:alice' };
    expect(await drive(deps)).toEqual({ kind: 'park', until: new Date(1000) });
    expect(store.state.status).toBe('awaiting_hypotheses');
  });

  it('is green without the known failures: a fix of the rest goes to review complete', async () => {
    const store = new MemoryLoopStore({ maxIterations: 3, knownFailures: ['t4'] });
    const deps = loopDeps({ store, fixer: createScriptedFixer([[hypothesis('half')]]) });

    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.iterations).toHaveLength(1);
    expect(store.reviewEvidence).toEqual([{ partial: false, stillFailing: [] }]);
  });

  it('judges the next iteration against the checkpoint: a partial fix, then the rest', async () => {
    const store = new MemoryLoopStore({ maxIterations: 3 });
    const shadows = new FakeShadows();
    const deps = loopDeps({
      store,
      shadows,
      fixer: createScriptedFixer([[hypothesis('half')], [hypothesis('right')]]),
    });

    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.reviewEvidence).toEqual([{ partial: false, stillFailing: [] }]);
    // Iteration 2's reference is iteration 1's winner: only t4 failed there.
    expect(shadows.requests[2]?.reference?.cases.find((c) => c.id === 't3')?.status).toBe('passed');
    expect(store.task.recentlyBroken).toEqual([]);
  });

  it('demotes a hypothesis that deletes an assert inside a #[cfg(test)] module of src/lib.rs', async () => {
    const lib = (assertion: string): string =>
      `pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n${assertion}    }\n}\n`;
    const store = new MemoryLoopStore({ maxIterations: 1 });
    const shadows = new FakeShadows();
    const workspace = new FakeWorkspace();
    const cheat = {
      name: 'right-by-deleting-the-assert',
      edits: [{ path: 'src/lib.rs', content: lib('') }],
      delete: [],
    };
    const deps = loopDeps({
      store,
      shadows,
      fixer: createScriptedFixer([[cheat]]),
      workspaces: fakeWorkspaces(workspace, 'ok', {
        'src/lib.rs': lib('        assert_eq!(super::add(2, 3), 5);\n'),
      }),
    });
    await drive(deps);
    expect(shadows.requests.at(-1)?.demote?.get(cheat.name)).toMatch(
      /^it edits tests, which this task does not allow \(.*src\/lib\.rs/,
    );
    expect(store.state.status).toBe('failed');
  });

  it('demotes a hypothesis whose library code defines assert_eq! above the #[cfg(test)] module', async () => {
    const tests =
      '#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(2, 3), 5);\n    }\n}\n';
    const original = `pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\n${tests}`;
    const cheat = {
      name: 'right-by-silencing-assert-eq',
      edits: [
        {
          path: 'src/lib.rs',
          content: `pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\nmacro_rules! assert_eq { ($($t:tt)*) => {}; }\n\n${tests}`,
        },
      ],
      delete: [],
    };
    const run = async (allowTestEdits: boolean) => {
      const store = new MemoryLoopStore({ maxIterations: 1, allowTestEdits });
      const shadows = new FakeShadows();
      await drive(
        loopDeps({
          store,
          shadows,
          fixer: createScriptedFixer([[cheat]]),
          workspaces: fakeWorkspaces(new FakeWorkspace(), 'ok', { 'src/lib.rs': original }),
        }),
      );
      return { store, demote: shadows.requests.at(-1)?.demote };
    };
    const strict = await run(false);
    expect(strict.demote?.get(cheat.name)).toMatch(
      /^it reaches into the test framework, which this task does not allow \(src\/lib\.rs:5 .*\(rule rust-assertion-macro\)/,
    );
    expect(strict.store.state.status).toBe('failed');
    const allowed = await run(true);
    expect(allowed.demote?.size ?? 0).toBe(0);
    expect(allowed.store.state.status).toBe('awaiting_review');
  });
});

describe('a review round (a reviewer requested changes)', () => {
  const thread = {
    id: 'th1',
    path: 'calc.py',
    side: 'new' as const,
    startLine: 3,
    endLine: 5,
    lines: ['def mean(xs):', '    if not xs:', '        return 0'],
    comments: [{ author: 'rita', body: 'use a guard clause' }],
  };
  const review = { round: 1, summaries: [{ author: 'rita', body: 'tidy up' }], threads: [thread] };

  /** A task put up for review in its only iteration (maxIterations 1), then sent back. */
  async function underReviewThenSentBack(fixer: Fixer) {
    const store = new MemoryLoopStore({ maxIterations: 1 });
    const workspace = new FakeWorkspace();
    const shadows = new FakeShadows();
    const first = createScriptedFixer([[hypothesis('right')]]);
    const deps = loopDeps({ store, fixer: first, shadows, workspaces: fakeWorkspaces(workspace) });
    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.state.status).toBe('awaiting_review');
    await store.requestChanges(1, review);
    expect(store.state.status).toBe('awaiting_hypotheses');
    return { store, workspace, shadows, deps: { ...deps, fixer } };
  }

  it('runs one more iteration beyond maxIterations, judged as a round, and puts its winner up', async () => {
    const asked: (ReviewRequest | null)[] = [];
    const fixer: Fixer = {
      name: 'llm',
      decide: (request) => {
        asked.push(request.review);
        return Promise.resolve({
          kind: 'run',
          hypotheses: [candidate('right-guard-clause'), candidate('wrong-early-return')],
          // Only the winner's reply is posted: the loser's change did not land.
          replies: [
            { threadId: 'th1', body: 'Done: a guard clause.', hypothesis: 'right-guard-clause' },
            { threadId: 'th1', body: 'Done: returns early.', hypothesis: 'wrong-early-return' },
          ],
        });
      },
    };
    const { store, workspace, shadows, deps } = await underReviewThenSentBack(fixer);
    const checkpointUnderReview = store.task.checkpointSha;
    const logged = workspace.log.length;

    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.state.status).toBe('awaiting_review');
    // The fixer read the threads; its answers were posted in them, as the fixer's.
    expect(asked).toEqual([review]);
    expect(store.replies).toEqual([
      {
        threadId: 'th1',
        body: 'Done: a guard clause.',
        hypothesis: 'right-guard-clause',
        author: 'fixer:llm',
      },
    ]);
    // Built on the checkpoint under review (not rolled back), judged as a review round: the
    // reference was green, so the winner fixed nothing and still won.
    expect(workspace.log.slice(logged).filter((l) => l.startsWith('rollback'))).toEqual([]);
    expect(shadows.requests.at(-1)?.reviewRound).toBe(true);
    expect(store.events.at(-3)).toMatchObject({
      type: 'iteration.finished',
      index: 2,
      winner: 'right-guard-clause',
    });
    expect(store.task.checkpointSha).not.toBe(checkpointUnderReview);
    expect(store.types().slice(-5)).toEqual([
      'task.changes_requested',
      'iteration.running',
      'iteration.finished',
      'review.thread',
      'review.ready',
    ]);
    expect(store.reviews).toHaveLength(2);
  });

  it('with no winner, puts the checkpoint it was asked to change up again (never fails the task)', async () => {
    const fixer = createScriptedFixer([[], [hypothesis('wrong')]]);
    const { store, deps } = await underReviewThenSentBack(fixer);
    const checkpoint = store.task.checkpointSha;

    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.state.status).toBe('awaiting_review');
    expect(store.task.checkpointSha).toBe(checkpoint);
    expect(store.types().slice(-2)).toEqual(['iteration.finished', 'review.ready']);
  });

  it('an external round that gets no hypothesis before its deadline goes back to review', async () => {
    const { store, deps } = await underReviewThenSentBack(createExternalFixer({ gatherMs: 100 }));
    // Past the round's deadline (60 s), and hours after the task started: the wall-clock budget
    // of a round counts from the round, so the review's own time spends none of it.
    const late = { ...deps, clock: fixedClock(new Date(90_000)) };
    store.task = { ...store.task, startedAt: new Date(-10 * 60 * 60_000) };
    const round = store.iterations.at(-1);
    if (round === undefined) throw new Error('no round iteration');
    round.startedAt = new Date(0);
    expect(await drive(late)).toEqual({ kind: 'done' });
    // From awaiting_hypotheses straight back to review: the lifecycle allows it.
    expect(store.state.status).toBe('awaiting_review');
    expect(store.types().at(-1)).toBe('review.ready');
  });
});
