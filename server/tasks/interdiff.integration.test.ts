// Interdiffs on a real task (real git, real pytest): two hypotheses of one iteration that touch
// an overlapping file (calc.py, written differently) and a disjoint one (notes.txt, only the
// runner-up's), a winner against the checkpoint it became, and the winner's history between
// iterations 1 and 2. Diffs are compared byte for byte with what git must print.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerRuntime } from '../runtime';
import type { Hypothesis } from '../engine/shadow';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import { tokenIn } from '../test-support/actors';
import { uploadTree, waitForView } from '../test-support/task-waits';
import { parseRef, type InterdiffQuery } from './interdiff-refs';
import type { Actor, TaskView } from './task-api';

let scratch: ScratchRuntime;
let runtime: ServerRuntime;
let owner: Actor;
let stranger: Actor;
let taskId: string;

const calc = (add: string, mul: string): string =>
  `def add(a, b):\n    return ${add}\n\n\ndef mul(a, b):\n    return ${mul}\n`;

const files = {
  'calc.py': calc('a - b', 'a + b'),
  'test_calc.py': [
    'from calc import add, mul',
    '',
    '',
    'def test_add():',
    '    assert add(2, 3) == 5',
    '',
    '',
    'def test_mul():',
    '    assert mul(2, 3) == 6',
    '',
  ].join('\n'),
};

// Iteration 1: both fix add and leave mul failing; the smaller change ranks first.
const addOnly: Hypothesis = {
  name: 'add-only',
  edits: [{ path: 'calc.py', content: calc('a + b', 'a + b') }],
  delete: [],
};
const notes = 'add is commutative\n';
const addNotes: Hypothesis = {
  name: 'add/notes',
  edits: [
    { path: 'calc.py', content: calc('b + a', 'a + b') },
    { path: 'notes.txt', content: notes },
  ],
  delete: [],
};
// Iteration 2 builds on add-only's checkpoint and fixes mul.
const mul: Hypothesis = {
  name: 'mul',
  edits: [{ path: 'calc.py', content: calc('a + b', 'a * b') }],
  delete: [],
};

/** git's blob id of `text`: what `index <a>..<b>` names with --full-index. */
const blobId = (text: string): string =>
  createHash('sha1')
    .update(`blob ${Buffer.byteLength(text)}\0${text}`)
    .digest('hex');

const refs = (a: string, b: string): InterdiffQuery => {
  const [left, right] = [parseRef(a), parseRef(b)];
  if (left === null || right === null) throw new Error(`bad ref in test: ${a} ${b}`);
  return { a: left, b: right };
};

const interdiff = (a: string, b: string, actor: Actor = owner) =>
  runtime.tasks.interdiff(taskId, refs(a, b), actor);

beforeAll(async () => {
  scratch = await openScratchRuntime('sbx-interdiff-', { gatherMs: 0 });
  runtime = scratch.runtime;
  owner = await tokenIn(runtime.db, 'ida', ['agent']);
  stranger = await tokenIn(runtime.db, 'sven', ['agent']);
  const file = await uploadTree(runtime, 'interdiff', files);
  ({ id: taskId } = await runtime.tasks.createTask(
    {
      source: { kind: 'archive', file, name: 'interdiff.tar.gz' },
      testCommand: ['python3', '-m', 'pytest', '-v'],
      maxIterations: 2,
      hypothesesPerIteration: 2,
    },
    owner,
  ));
  await waitForView(runtime, taskId, owner, (t) => t.status === 'awaiting_hypotheses');
  await runtime.tasks.submitHypotheses(taskId, [addOnly, addNotes], owner);
  await waitForView(
    runtime,
    taskId,
    owner,
    (t) => t.iterations.length === 2 && t.status === 'awaiting_hypotheses',
  );
  await runtime.tasks.submitHypotheses(taskId, [mul], owner);
  const reviewed: TaskView = await waitForView(runtime, taskId, owner, (t) =>
    ['awaiting_review', 'failed', 'interrupted'].includes(t.status),
  );
  expect(reviewed.status).toBe('awaiting_review');
  expect(reviewed.iterations.map((it) => it.winner)).toEqual(['add-only', 'mul']);
}, 300_000);

afterAll(async () => {
  await scratch.close();
});

describe('interdiff', () => {
  it('diffs two hypotheses over the files either touches: the overlapping one and the disjoint one', async () => {
    const view = await interdiff('hypothesis:1/add-only', 'hypothesis:1/add/notes');
    expect(view.diff).toBe(
      [
        'diff --git a/calc.py b/calc.py',
        `index ${blobId(calc('a + b', 'a + b'))}..${blobId(calc('b + a', 'a + b'))} 100644`,
        '--- a/calc.py',
        '+++ b/calc.py',
        '@@ -1,5 +1,5 @@',
        ' def add(a, b):',
        '-    return a + b',
        '+    return b + a',
        ' ',
        ' ',
        ' def mul(a, b):',
        'diff --git a/notes.txt b/notes.txt',
        'new file mode 100644',
        `index ${'0'.repeat(40)}..${blobId(notes)}`,
        '--- /dev/null',
        '+++ b/notes.txt',
        '@@ -0,0 +1 @@',
        '+add is commutative',
        '',
      ].join('\n'),
    );
    expect(view.files).toEqual([
      { path: 'calc.py', inA: true, inB: true, change: 'modified' },
      { path: 'notes.txt', inA: false, inB: true, change: 'added' },
    ]);
    expect([view.a, view.b]).toEqual(['hypothesis:1/add-only', 'hypothesis:1/add/notes']);
  });

  it('shows nothing between a winner and the checkpoint it became, and a runner-up against it', async () => {
    expect((await interdiff('hypothesis:1/add-only', 'checkpoint:1')).diff).toBe('');
    const runnerUp = await interdiff('checkpoint:1', 'hypothesis:1/add/notes');
    expect(runnerUp.diff).toBe(
      (await interdiff('hypothesis:1/add-only', 'hypothesis:1/add/notes')).diff,
    );
  });

  it('shows what changed between iteration 1 and 2 of the winner’s history', async () => {
    const view = await interdiff('checkpoint:1', 'checkpoint:2');
    expect(view.diff).toBe(
      [
        'diff --git a/calc.py b/calc.py',
        `index ${blobId(calc('a + b', 'a + b'))}..${blobId(calc('a + b', 'a * b'))} 100644`,
        '--- a/calc.py',
        '+++ b/calc.py',
        '@@ -3,4 +3,4 @@ def add(a, b):',
        ' ',
        ' ',
        ' def mul(a, b):',
        '-    return a + b',
        '+    return a * b',
        '',
      ].join('\n'),
    );
    // The same diff by the hypotheses that made the checkpoints, by id as well as by name.
    const row = await runtime.db.hypothesis.findFirstOrThrow({
      where: { taskId, name: 'mul' },
      select: { id: true },
    });
    expect((await interdiff('hypothesis:1/add-only', `hypothesis:${row.id}`)).diff).toBe(view.diff);
  });

  it('refuses refs to iterations and hypotheses the task does not have', async () => {
    await expect(interdiff('checkpoint:0', 'checkpoint:3')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: `no iteration 3 in task ${taskId} (it has 2)`,
    });
    await expect(interdiff('checkpoint:0', 'hypothesis:2/add-only')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: `no hypothesis "add-only" in iteration 2 of task ${taskId}`,
    });
  });

  it("refuses another task's hypothesis as unknown, and a task the actor may not see", async () => {
    const other = await runtime.db.task.create({
      data: {
        sourceKind: 'archive',
        testCommand: ['true'],
        hypotheses: { create: { name: 'elsewhere', origin: 'external' } },
      },
      select: { hypotheses: { select: { id: true } } },
    });
    const foreign = other.hypotheses[0]!.id;
    await expect(interdiff('checkpoint:0', `hypothesis:${foreign}`)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: `no hypothesis ${foreign} in task ${taskId}`,
    });
    await expect(interdiff('checkpoint:0', 'checkpoint:1', stranger)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: `no task ${taskId}`,
    });
  });
});
