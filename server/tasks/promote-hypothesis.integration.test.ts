// Promoting a runner-up on a real task (real git, real pytest): three hypotheses fix `add`; the
// smallest wins, a longer one that also adds a file passes, one breaks a test that passed before.
// A reviewer puts the longer one up for review with a reason: it becomes the checkpoint, its diff
// gets its own SHA-256, the ranked winner stays with the reason it was passed over, the audit log
// and the task's events say so. Every refusal is asserted as worded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerRuntime } from '../runtime';
import type { Hypothesis } from '../engine/shadow';
import { gitText } from '../engine/workspace/git';
import { sourceGitDir, workspaceLayout } from '../engine/workspace';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import { tokenIn, userIn, teamIn } from '../test-support/actors';
import { uploadTree, waitForView } from '../test-support/task-waits';
import { parseRef } from './interdiff-refs';
import type { Actor, TaskView } from './task-api';

let scratch: ScratchRuntime;
let runtime: ServerRuntime;
/** The owner (an author), a reviewer of the team, the reviewer's agent-only token, an outsider. */
let owner: Actor;
let reviewer: Actor;
let reviewerAgent: Actor;
let outsider: Actor;
let task: TaskView;

const files = {
  'calc.py': 'def add(a, b):\n    return a - b\n',
  'test_calc.py': [
    'from calc import add',
    '',
    '',
    'def test_adds():',
    '    assert add(2, 3) == 5',
    '',
    '',
    'def test_zero():',
    '    assert add(5, 0) == 5',
    '',
  ].join('\n'),
};

const small: Hypothesis = {
  name: 'small',
  edits: [{ path: 'calc.py', content: 'def add(a, b):\n    return a + b\n' }],
  delete: [],
};
const verbose: Hypothesis = {
  name: 'verbose',
  edits: [
    {
      path: 'calc.py',
      content: 'from util import total\n\n\ndef add(a, b):\n    return total(a, b)\n',
    },
    { path: 'util.py', content: 'def total(a, b):\n    return a + b\n' },
  ],
  delete: [],
};
const breaks: Hypothesis = {
  name: 'breaks',
  edits: [{ path: 'calc.py', content: 'def add(a, b):\n    return a + b if b else 0\n' }],
  delete: [],
};
const reason = 'the helper is what upstream asked for in the issue';

const promote = (hypothesis: string, why: string, actor: Actor = reviewer) =>
  runtime.tasks.promote(task.id, { hypothesis, reason: why }, actor);

beforeAll(async () => {
  scratch = await openScratchRuntime('sbx-promote-', { gatherMs: 0 });
  runtime = scratch.runtime;
  await teamIn(runtime.db, 'core', { olga: 'author', rita: 'reviewer' });
  owner = await tokenIn(runtime.db, 'olga', ['agent']);
  reviewer = await userIn(runtime.db, 'rita', 'reviewer');
  reviewerAgent = await tokenIn(runtime.db, 'rita', ['agent']);
  outsider = await userIn(runtime.db, 'nick', 'reviewer');

  const file = await uploadTree(runtime, 'promote', files);
  const { id } = await runtime.tasks.createTask(
    {
      source: { kind: 'archive', file, name: 'promote.tar.gz' },
      testCommand: ['python3', '-m', 'pytest', '-v'],
      maxIterations: 1,
      hypothesesPerIteration: 3,
      team: 'core',
    },
    owner,
  );
  await waitForView(runtime, id, owner, (t) => t.status === 'awaiting_hypotheses');
  await runtime.tasks.submitHypotheses(id, [small, verbose, breaks], owner);
  task = await waitForView(runtime, id, owner, (t) =>
    ['awaiting_review', 'failed', 'interrupted'].includes(t.status),
  );
  expect(task.status).toBe('awaiting_review');
  expect(task.iterations[0]?.winner).toBe('small');
  expect(task.iterations[0]?.hypotheses.map((h) => [h.name, h.verdict])).toEqual([
    ['small', 'winner'],
    ['verbose', 'passed'],
    ['breaks', 'failed'],
  ]);
}, 300_000);

afterAll(async () => {
  await scratch.close();
});

describe('promoting a runner-up: refusals', () => {
  it('refuses an empty reason', async () => {
    await expect(promote('verbose', '   ')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'reason: say why this hypothesis should be reviewed instead of the ranked winner',
    });
  });

  it('refuses a disqualified hypothesis, saying why it is', async () => {
    await expect(promote('breaks', reason)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: 'cannot promote breaks: it is disqualified: it broke 1 test that passed before',
    });
  });

  it('refuses the winner itself and a hypothesis the iteration does not have', async () => {
    await expect(promote('small', reason)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: 'cannot promote small: it is already the diff under review',
    });
    await expect(promote('nope', reason)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: `no hypothesis "nope" in iteration 1 of task ${task.id} (only the newest iteration's hypotheses can be promoted)`,
    });
  });

  it('refuses whoever is not a reviewer of the task', async () => {
    const needs =
      'reviewing (approve, reject, request changes, resolve) needs a reviewer or an admin, or their token with the "reviewer" scope';
    await expect(promote('verbose', reason, reviewerAgent)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: needs,
    });
    await expect(promote('verbose', reason, owner)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: needs,
    });
    await expect(promote('verbose', reason, outsider)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: `no task ${task.id}`,
    });
    // Nothing changed.
    const after = await runtime.tasks.getTask(task.id, reviewer);
    expect(after.diffSha256).toBe(task.diffSha256);
    expect(after.iterations[0]?.winner).toBe('small');
  });
});

describe('promoting a runner-up', () => {
  let promoted: TaskView;

  beforeAll(async () => {
    promoted = await promote('verbose', `  ${reason}\n`);
  });

  it('puts its diff up for review with its own SHA-256; the ranked winner stays, passed over', () => {
    expect(promoted.status).toBe('awaiting_review');
    expect(promoted.diffSha256).not.toBeNull();
    expect(promoted.diffSha256).not.toBe(task.diffSha256);
    expect(promoted.approvedDiffSha256).toBeNull();
    const iteration = promoted.iterations[0];
    expect(iteration?.winner).toBe('verbose');
    expect(iteration?.promotion).toEqual({ by: 'rita', reason, passedOver: 'small' });
    expect(iteration?.hypotheses.map((h) => [h.name, h.rank, h.verdict])).toEqual([
      ['small', 1, 'passed'],
      ['verbose', 2, 'winner'],
      ['breaks', 3, 'failed'],
    ]);
  });

  it('commits the promoted tree as the checkpoint, on the one the iteration ran on', async () => {
    const row = await runtime.db.task.findUniqueOrThrow({
      where: { id: task.id },
      select: { checkpointSha: true, baselineCommit: true, sourceId: true },
    });
    expect(promoted.iterations[0]?.checkpointSha).toBe(row.checkpointSha);
    const gitDir = sourceGitDir(workspaceLayout(scratch.dataDir), row.sourceId!);
    expect(await gitText({ gitDir, args: ['rev-parse', `${row.checkpointSha}^`] })).toBe(
      row.baselineCommit,
    );
    expect(await gitText({ gitDir, args: ['show', `${row.checkpointSha}:util.py`] })).toBe(
      'def total(a, b):\n    return a + b',
    );
  });

  it("serves the promoted hypothesis's diff under the new hash", async () => {
    const diff = await runtime.tasks.getDiff(task.id, reviewer);
    expect(diff.sha256).toBe(promoted.diffSha256);
    const own = await runtime.tasks.interdiff(
      task.id,
      { a: parseRef('checkpoint:0')!, b: parseRef('hypothesis:1/verbose')! },
      reviewer,
    );
    expect(own.diff).toContain('+++ b/util.py');
    expect(diff.diff).toContain(own.diff);
  });

  it('is audited and announced', async () => {
    const audit = await runtime.db.auditLog.findMany({
      where: { action: 'task.promote', target: task.id },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor: 'rita',
      details: {
        iteration: 1,
        hypothesis: 'verbose',
        passedOver: 'small',
        reason,
        diffSha256: promoted.diffSha256,
        replacedDiffSha256: task.diffSha256,
      },
    });
    const events = await runtime.db.event.findMany({
      where: { taskId: task.id },
      orderBy: { seq: 'asc' },
      select: { type: true, payload: true },
    });
    expect(events.slice(-2).map((e) => e.type)).toEqual(['review.promoted', 'review.ready']);
    expect(events.at(-2)?.payload).toMatchObject({
      iteration: 1,
      hypothesis: 'verbose',
      passedOver: 'small',
      reason,
      by: 'rita',
    });
    expect(events.at(-1)?.payload).toMatchObject({ diffSha256: promoted.diffSha256 });
  });

  it('binds approvals to the new diff: the old one is stale, and an approved task is not promoted again', async () => {
    await expect(
      runtime.tasks.review(task.id, { verdict: 'approve', sha256: task.diffSha256! }, reviewer),
    ).rejects.toMatchObject({ code: 'STALE_DIFF' });
    await runtime.tasks.review(
      task.id,
      { verdict: 'approve', sha256: promoted.diffSha256! },
      reviewer,
    );
    await expect(promote('small', 'back to the ranked one')).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: `task ${task.id} is approved: a reviewer must reopen it before another hypothesis can be promoted`,
    });
  });
});
