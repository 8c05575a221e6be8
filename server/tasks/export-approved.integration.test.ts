// Exports of an approved change (#25): a real task fixed over two iterations (two checkpoints),
// approved, then exported as a `git format-patch` series (one commit per checkpoint, or squashed)
// and as a `git bundle`, each checked with git itself: `git am` on the original tree, a clone of
// the bundle. Nothing is exported before the approval, nor after the diff moved on from it.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hypothesis } from '../engine/shadow';
import type { ServerRuntime } from '../runtime';
import { tokenIn, userIn, teamIn } from '../test-support/actors';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import { uploadTree, waitForView } from '../test-support/task-waits';
import type { Actor, TaskView } from './task-api';

const files = {
  'calc.py': 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a + b\n',
  'test_calc.py':
    'from calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n',
};
const fixAdd: Hypothesis = {
  name: 'fix-add',
  edits: [
    {
      path: 'calc.py',
      content: 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a + b\n',
    },
  ],
  delete: [],
};
const fixMul: Hypothesis = {
  name: 'fix-mul',
  edits: [
    {
      path: 'calc.py',
      content: 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n',
    },
  ],
  delete: [],
};

let scratch: ScratchRuntime;
let runtime: ServerRuntime;
let agent: Actor;
let reviewer: Actor;
let taskId: string;
let approved: TaskView;
let work: string;

const gitEnv = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
};
const gitIn = (cwd: string, args: string[], input?: Buffer) =>
  execa('git', args, { cwd, env: gitEnv, ...(input === undefined ? {} : { input }) });

/** The original tree as a repository of its own: what the team has before the change. */
async function originalRepo(name: string): Promise<string> {
  const dir = path.join(work, name);
  await execa('mkdir', ['-p', dir]);
  for (const [file, content] of Object.entries(files))
    await writeFile(path.join(dir, file), content);
  await gitIn(dir, ['init', '-q']);
  await gitIn(dir, ['add', '.']);
  await gitIn(dir, ['commit', '-qm', 'original']);
  return dir;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'sbx-export-work-'));
  scratch = await openScratchRuntime('sbx-export-', { gatherMs: 0 });
  runtime = scratch.runtime;
  // Shared with a team where rita reviews: she sees and approves ada's tasks.
  await teamIn(runtime.db, 'core', { ada: 'author', rita: 'reviewer' });
  agent = await tokenIn(runtime.db, 'ada', ['agent']);
  reviewer = await userIn(runtime.db, 'rita', 'reviewer');
  const file = await uploadTree(runtime, 'export', files);
  ({ id: taskId } = await runtime.tasks.createTask(
    {
      source: { kind: 'archive', file, name: 'export.tar.gz' },
      title: 'Add and multiply are wrong',
      problem: 'add(2, 3) gives -1 and mul(2, 3) gives 5.',
      testCommand: ['python3', '-m', 'pytest', '-q'],
      maxIterations: 3,
      hypothesesPerIteration: 1,
      team: 'core',
    },
    agent,
  ));
  const wait = (done: (task: TaskView) => boolean) =>
    waitForView(runtime, taskId, agent, done, 180_000);
  await wait((t) => t.status === 'awaiting_hypotheses');
  await runtime.tasks.submitHypotheses(taskId, [fixAdd], agent);
  await wait((t) => t.status === 'awaiting_hypotheses' && t.iterations.length === 2);
  await runtime.tasks.submitHypotheses(taskId, [fixMul], agent);
  const ready = await wait((t) => t.status === 'awaiting_review');
  approved = await runtime.tasks.review(
    taskId,
    { verdict: 'approve', sha256: ready.diffSha256 ?? '' },
    reviewer,
  );
}, 300_000);

afterAll(async () => {
  await scratch.close();
  await rm(work, { recursive: true, force: true });
});

describe('exports of an approved change', () => {
  it('writes one commit per checkpoint that git am applies, with the messages and authors people should see', async () => {
    expect(approved.status).toBe('approved');
    const series = await runtime.tasks.exportApproved(
      taskId,
      { kind: 'series', squash: false },
      reviewer,
    );
    expect(series.sha256).toBe(approved.approvedDiffSha256);
    expect(series.fileName).toBe(`shadowbox-${taskId}-${series.sha256.slice(0, 12)}.mbox`);
    const text = series.bytes.toString('utf8');
    expect(text).toContain(
      'Subject: [PATCH 1/2] Add and multiply are wrong (iteration 1: fix-add)',
    );
    expect(text).toContain(
      'Subject: [PATCH 2/2] Add and multiply are wrong (iteration 2: fix-mul)',
    );
    expect(text).toContain('From: ada <ada@users.shadowbox.invalid>');
    expect(text).toContain('Tested-by: Shadowbox <1 passed, fixed: test_calc.py::test_add>');
    expect(text).toContain(`Approved-by: rita (sha256 ${series.sha256})`);

    const repo = await originalRepo('am');
    await gitIn(repo, ['am', '-q'], series.bytes);
    expect(await readFile(path.join(repo, 'calc.py'), 'utf8')).toBe(fixMul.edits[0]?.content);
    const log = await gitIn(repo, ['log', '--format=%an|%s', '-3']);
    expect(log.stdout.split('\n')).toEqual([
      'ada|Add and multiply are wrong (iteration 2: fix-mul)',
      'ada|Add and multiply are wrong (iteration 1: fix-add)',
      't|original',
    ]);
    // The same approval gives the same bytes.
    const again = await runtime.tasks.exportApproved(
      taskId,
      { kind: 'series', squash: false },
      reviewer,
    );
    expect(again.bytes.equals(series.bytes)).toBe(true);
  });

  it('squashes the change into one commit on request', async () => {
    const series = await runtime.tasks.exportApproved(
      taskId,
      { kind: 'series', squash: true },
      reviewer,
    );
    const text = series.bytes.toString('utf8');
    expect(text).toContain('Subject: [PATCH] Add and multiply are wrong\n');
    expect(text).toContain('add(2, 3) gives -1 and mul(2, 3) gives 5.');
    expect(text).toContain(
      'Tested-by: Shadowbox <2 passed, fixed: test_calc.py::test_add, test_calc.py::test_mul>',
    );
    expect(series.fileName.endsWith('-squashed.mbox')).toBe(true);
  });

  it('bundles the approved commits on branch shadowbox/<task>, clonable with git', async () => {
    const bundle = await runtime.tasks.exportApproved(
      taskId,
      { kind: 'bundle', squash: false },
      reviewer,
    );
    const file = path.join(work, 'change.bundle');
    await writeFile(file, bundle.bytes);
    const heads = await gitIn(work, ['bundle', 'list-heads', file]);
    expect(heads.stdout).toMatch(new RegExp(`^[0-9a-f]{40} refs/heads/shadowbox/${taskId}$`));
    await gitIn(work, ['clone', '-q', '--branch', `shadowbox/${taskId}`, file, 'from-bundle']);
    const clone = path.join(work, 'from-bundle');
    expect(await readFile(path.join(clone, 'calc.py'), 'utf8')).toBe(fixMul.edits[0]?.content);
    const subjects = await gitIn(clone, ['log', '--format=%s']);
    expect(subjects.stdout.split('\n').slice(0, 2)).toEqual([
      'Add and multiply are wrong (iteration 2: fix-mul)',
      'Add and multiply are wrong (iteration 1: fix-add)',
    ]);
  });

  it('refuses before an approval, and once the approval is no longer on the current diff', async () => {
    await runtime.tasks.reopen(taskId, reviewer);
    await expect(
      runtime.tasks.exportApproved(taskId, { kind: 'series', squash: false }, reviewer),
    ).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: `task ${taskId} is awaiting_review: only an approved change can be exported`,
    });
    // An approval whose hash is not the current diff's (as a later run would leave it).
    await runtime.db.task.update({
      where: { id: taskId },
      data: { status: 'approved', approvalState: 'approved', approvedDiffSha256: 'f'.repeat(64) },
    });
    await expect(
      runtime.tasks.exportApproved(taskId, { kind: 'bundle', squash: false }, reviewer),
    ).rejects.toMatchObject({ code: 'STALE_DIFF' });
  });
});
