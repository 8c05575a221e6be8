import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpStatusOf, isAppError } from '../errors/app-error';
import type { Hypothesis } from '../engine/shadow/hypothesis';
import type { ServerRuntime } from '../runtime';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import { copyProject, fixtureProject, packProject, readTree } from '../test-support/projects';
import type { Actor, TaskView } from './task-api';
import { tokenIn } from '../test-support/actors';
import { createApiToken } from '../auth';
import { handleSubmitHypotheses } from '../api/rest';

/** pytest-calc with a directory beside `calc.py`: `lib/helpers.py`. */
const project = fixtureProject('pytest-calc');

let dataDir: string;
let scratch: ScratchRuntime;
let runtime: ServerRuntime;
let taskId: string;
let worktree: string;
/** The agent token of the task's owner. */
let agent: Actor;

async function waitFor(done: (task: TaskView) => boolean, timeoutMs = 120_000): Promise<TaskView> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const task = await runtime.tasks.getTask(taskId, agent);
    if (done(task)) return task;
    if (Date.now() > until) throw new Error(`timed out; task is ${JSON.stringify(task, null, 1)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  scratch = await openScratchRuntime('sbx-submit-', { gatherMs: 500 });
  ({ runtime, dataDir } = scratch);
  agent = await tokenIn(runtime.db, 'alice', ['agent']);
  const source = await copyProject(project);
  await mkdir(path.join(source, 'lib'));
  await writeFile(path.join(source, 'lib', 'helpers.py'), 'def twice(x):\n    return 2 * x\n');
  const packed = await packProject({ ...project, dir: source });
  const upload = path.join(runtime.uploadDir, 'submit-test-upload');
  await copyFile(packed.file, upload);
  await packed.cleanup();
  await rm(path.dirname(source), { recursive: true, force: true });
  ({ id: taskId } = await runtime.tasks.createTask(
    {
      source: { kind: 'archive', file: upload, name: packed.name },
      testCommand: project.testCommand,
      hypothesesPerIteration: 3,
      maxIterations: 2,
    },
    agent,
  ));
  worktree = path.join(dataDir, 'worktrees', taskId);
  await waitFor((t) => t.status === 'awaiting_hypotheses');
}, 180_000);

afterAll(async () => {
  await scratch.close();
});

/** Submits next to the fixture's right fix and checks the exact refusal and that nothing changed. */
async function expectRefused(bad: Hypothesis, message: string): Promise<void> {
  const before = await runtime.tasks.getTask(taskId, agent);
  const files = await readTree(worktree);
  const refusal = await runtime.tasks
    .submitHypotheses(taskId, [project.hypotheses.right, bad], agent)
    .then(
      () => null,
      (error: unknown) => error,
    );
  expect(refusal).toMatchObject({
    code: 'INVALID_HYPOTHESIS',
    message,
    details: { hypothesis: bad.name },
  });
  expect(isAppError(refusal) && httpStatusOf(refusal.code)).toBe(400);
  const after = await runtime.tasks.getTask(taskId, agent);
  expect(after).toEqual(before);
  expect(after.pendingHypotheses).toEqual([]);
  expect(await readTree(worktree)).toEqual(files);
}

describe('submitting hypotheses against the task worktree', () => {
  it('refuses a hypothesis whose path has a file as its parent (calc.py/x) with 400 naming it', async () => {
    await expectRefused(
      { name: 'fix-2', edits: [{ path: 'calc.py/x', content: 'x = 1\n' }], delete: [] },
      "hypothesis 'fix-2': 'calc.py/x' cannot be written: its parent 'calc.py' is a file",
    );
  });

  it('refuses a hypothesis whose edit would replace a directory with 400 naming it', async () => {
    await expectRefused(
      { name: 'fix-2', edits: [{ path: 'lib', content: 'not a directory\n' }], delete: [] },
      "hypothesis 'fix-2': 'lib' cannot be written: it is a directory",
    );
  });

  it('refuses a hypothesis that deletes a directory with 400 naming it', async () => {
    await expectRefused(
      { name: 'fix-2', edits: [], delete: ['lib'] },
      "hypothesis 'fix-2': 'lib' cannot be deleted: it is a directory",
    );
  });

  it('refuses a path with a 300-byte segment with 400 naming it (it was a 500 ENAMETOOLONG)', async () => {
    const long = `lib/${'n'.repeat(300)}.py`;
    await expectRefused(
      { name: 'fix-2', edits: [{ path: long, content: 'x = 1\n' }], delete: [] },
      `hypothesis 'fix-2': path '${long}' has a segment longer than 255 bytes`,
    );
    const { token } = await createApiToken(runtime.db, { user: 'alice', scopes: ['agent'] });
    const response = await handleSubmitHypotheses(
      new Request(`http://127.0.0.1/api/v1/tasks/${taskId}/hypotheses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          hypotheses: [{ name: 'fix-3', edits: [{ path: long, content: 'x = 1\n' }] }],
        }),
      }),
      { runtime },
      { id: taskId },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: {
        code: 'INVALID_HYPOTHESIS',
        message: `hypothesis 'fix-3': path '${long}' has a segment longer than 255 bytes`,
      },
    });
  });

  it('still takes good hypotheses afterwards, including new files in new directories', async () => {
    const fresh: Hypothesis = {
      name: 'with-notes',
      edits: [
        ...project.hypotheses.right.edits,
        { path: 'lib/notes/README.md', content: 'notes\n' },
      ],
      delete: [],
    };
    await expect(runtime.tasks.submitHypotheses(taskId, [fresh], agent)).resolves.toEqual({
      accepted: ['with-notes'],
    });
  });
});
