import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerRuntime } from '../runtime';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import type { StoredEvent } from '../db/event-store';
import { fixtureProject, packProject } from '../test-support/projects';
import { actorLabel, cliActor } from '../auth/actor';
import { tokenIn } from '../test-support/actors';
import type { Actor, TaskView } from './task-api';

const project = fixtureProject('pytest-calc');
/** An author's agent token (the tasks are theirs) and an admin's reviewer token. */
let agent: Actor;
let reviewer: Actor;

let dataDir: string;
let scratch: ScratchRuntime;
let runtime: ServerRuntime;

async function waitFor(
  taskId: string,
  done: (task: TaskView) => boolean,
  timeoutMs = 120_000,
): Promise<TaskView> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const task = await runtime.tasks.getTask(taskId, agent);
    if (done(task)) return task;
    if (Date.now() > until) throw new Error(`timed out; task is ${JSON.stringify(task, null, 1)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function createFromArchive(
  extra: Partial<Parameters<ServerRuntime['tasks']['createTask']>[0]> = {},
): Promise<string> {
  const packed = await packProject(project);
  const upload = path.join(runtime.uploadDir, 'test-upload');
  await import('node:fs/promises').then((fs) => fs.copyFile(packed.file, upload));
  await packed.cleanup();
  const { id } = await runtime.tasks.createTask(
    {
      source: { kind: 'archive', file: upload, name: packed.name },
      testCommand: project.testCommand,
      hypothesesPerIteration: 3,
      maxIterations: 2,
      ...extra,
    },
    agent,
  );
  return id;
}

beforeAll(async () => {
  scratch = await openScratchRuntime('sbx-service-', { gatherMs: 500 });
  ({ runtime, dataDir } = scratch);
  agent = await tokenIn(runtime.db, 'alice', ['agent']);
  reviewer = await tokenIn(runtime.db, 'ada', ['reviewer'], 'admin');
});

afterAll(async () => {
  await scratch.close();
});

describe('task service on a real pytest project', () => {
  it('runs baseline → hypotheses → winner → review → approve, and streams every event once', async () => {
    const id = await createFromArchive();
    const waiting = await waitFor(id, (t) => t.status === 'awaiting_hypotheses');
    expect(waiting.baseline).toMatchObject({ failed: project.tests.failingAtBaseline });

    const { right, wrong, broken } = project.hypotheses;
    await runtime.tasks.submitHypotheses(id, [wrong, right, broken], agent);
    const reviewed = await waitFor(
      id,
      (t) => t.status === 'awaiting_review' || t.status === 'failed',
    );
    expect(reviewed.status).toBe('awaiting_review');
    expect(reviewed.iterations[0]?.winner).toBe(right.name);
    expect(reviewed.iterations[0]?.hypotheses.map((h) => h.name)[0]).toBe(right.name);
    expect(reviewed.diffSha256).toMatch(/^[0-9a-f]{64}$/);

    const diff = await runtime.tasks.getDiff(id, reviewer);
    expect(diff.sha256).toBe(reviewed.diffSha256);
    await expect(
      runtime.tasks.review(id, { verdict: 'approve', sha256: diff.sha256 }, agent),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      runtime.tasks.review(id, { verdict: 'approve', sha256: '0'.repeat(64) }, reviewer),
    ).rejects.toMatchObject({ code: 'STALE_DIFF' });
    expect((await runtime.tasks.getTask(id, agent)).status).toBe('awaiting_review');
    const approved = await runtime.tasks.review(
      id,
      { verdict: 'approve', sha256: diff.sha256 },
      reviewer,
    );
    expect(approved.status).toBe('approved');
    // The approval names the reviewer token's owner.
    expect(approved.decision).toMatchObject({
      verdict: 'approve',
      by: actorLabel(reviewer),
      sha256: diff.sha256,
    });
    expect(actorLabel(reviewer)).toMatch(/^ada \(token:/);
    const worktreeFile = await readFile(
      path.join(dataDir, 'worktrees', id, project.buggyFile),
      'utf8',
    );
    expect(worktreeFile).toBe(right.edits[0]?.content);

    // An approval holds: no reject, no new hypotheses, no rollback, no reopen by an agent.
    await expect(
      runtime.tasks.review(id, { verdict: 'reject', sha256: diff.sha256 }, reviewer),
    ).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await expect(runtime.tasks.submitHypotheses(id, [wrong], agent)).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
    await expect(runtime.tasks.rollback(id, agent)).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
    await expect(runtime.tasks.reopen(id, agent)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await runtime.tasks.getTask(id, agent)).toMatchObject({
      status: 'approved',
      approvedDiffSha256: diff.sha256,
      pendingHypotheses: [],
    });

    const controller = new AbortController();
    const events: StoredEvent[] = [];
    for await (const event of runtime.tasks.events(id, 0, controller.signal, agent)) {
      events.push(event);
      if (event.type === 'task.approved') controller.abort();
    }
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'task.created',
        'baseline.finished',
        'iteration.awaiting_hypotheses',
        'iteration.running',
        'iteration.finished',
        'review.ready',
        'task.approved',
      ]),
    );
    // Only a reviewer's reopen changes an approved task: back to review, the approval withdrawn.
    const reopened = await runtime.tasks.reopen(id, reviewer);
    expect(reopened).toMatchObject({ status: 'awaiting_review', approvedDiffSha256: null });
    const again = await runtime.tasks.review(
      id,
      { verdict: 'approve', sha256: diff.sha256 },
      reviewer,
    );
    expect(again.status).toBe('approved');
  });
});

describe('plan steps with gate commands', () => {
  it('accepts `milestone done` only on gates that ran green after the last write', async () => {
    const id = await createFromArchive({
      hypothesesPerIteration: 1,
      plan: [
        { title: 'keep add working', gates: [['python3', '-m', 'pytest', '-q', '-k', 'add']] },
        { title: 'fix mean', scope: 'calc.py', gates: [['python3', '-m', 'pytest', '-q']] },
      ],
    });
    // Before any run: no evidence at all.
    const early = await runtime.tasks.milestone(id, { action: 'done', step: 1 }, agent);
    expect(early).toMatchObject({ accepted: false });
    if (!early.accepted) expect(early.reason).toMatch(/has not run|no checkpoint/);

    await waitFor(
      id,
      (t) => t.status === 'awaiting_hypotheses' && t.plan[1]?.gates[0]?.lastRun !== null,
    );
    expect(await runtime.tasks.milestone(id, { action: 'done', step: 1 }, agent)).toMatchObject({
      accepted: true,
      status: { current: { index: 2 } },
    });
    const red = await runtime.tasks.milestone(id, { action: 'done', step: 2 }, agent);
    expect(red).toMatchObject({ accepted: false });
    if (!red.accepted) expect(red.reason).toMatch(/ran red on the last write/);

    await runtime.tasks.submitHypotheses(id, [project.hypotheses.right], agent);
    const reviewed = await waitFor(
      id,
      (t) => t.status === 'awaiting_review' && t.plan[1]?.gates[0]?.lastRun?.current === true,
    );
    expect(reviewed.plan[1]?.gates[0]?.lastRun?.green).toBe(true);
    expect(await runtime.tasks.milestone(id, { action: 'done', step: 2 }, agent)).toMatchObject({
      accepted: true,
      status: { current: null },
    });
    // Reset reopens a step; the evidence on the newest checkpoint still holds.
    await runtime.tasks.milestone(id, { action: 'reset', step: 1 }, agent);
    const status = await runtime.tasks.milestone(id, { action: 'status' }, agent);
    expect(status.status.current?.index).toBe(1);
  });

  it('refuses a plan whose gate command the policy does not allow', async () => {
    await expect(
      createFromArchive({ plan: [{ title: 'x', gates: [['bash', '-c', 'true']] }] }),
    ).rejects.toMatchObject({ code: 'COMMAND_NOT_ALLOWED' });
  });
});

describe('per-task resource caps', () => {
  it("runs the task's hypotheses under its own memory cap, and the verdict names the cap", async () => {
    const id = await createFromArchive({ hypothesesPerIteration: 1, limits: { maxMemoryMb: 64 } });
    const waiting = await waitFor(id, (t) => t.status === 'awaiting_hypotheses');
    expect(waiting.limits).toEqual({
      maxMemoryMb: 64,
      maxPids: null,
      maxDiskMb: null,
      maxInodes: null,
    });
    const greedy = {
      name: 'greedy',
      edits: [{ path: project.buggyFile, content: 'hoard = bytearray(512 * 1024 * 1024)\n' }],
      delete: [],
    };
    await runtime.tasks.submitHypotheses(id, [greedy], agent);
    const ran = await waitFor(
      id,
      (t) => (t.iterations[0]?.hypotheses.length ?? 0) > 0 && t.iterations[0]?.status !== 'running',
    );
    const [outcome] = ran.iterations[0]?.hypotheses ?? [];
    expect(outcome?.error).toBe('the run exceeded its memory cap of 64 MB and was killed');
    await runtime.tasks.cancel(id, agent).catch(() => undefined);
  });

  it('refuses a cap out of range, naming it, and creates nothing', async () => {
    const before = (await runtime.tasks.listTasks(cliActor)).tasks.length;
    await expect(createFromArchive({ limits: { maxPids: 2 } })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'maxPids must be a whole number of processes from 8 to 4194304, got 2',
    });
    expect((await runtime.tasks.listTasks(cliActor)).tasks.length).toBe(before);
  });
});

describe('review actions', () => {
  it('rejects roll the worktree back; files are read from the newest checkpoint', async () => {
    const id = await createFromArchive({ hypothesesPerIteration: 1 });
    await waitFor(id, (t) => t.status === 'awaiting_hypotheses');
    expect(await runtime.tasks.listFiles(id, agent)).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: project.buggyFile })]),
    );
    const before = await runtime.tasks.readFile(id, project.buggyFile, agent);
    await runtime.tasks.submitHypotheses(id, [project.hypotheses.right], agent);
    const reviewed = await waitFor(id, (t) => t.status === 'awaiting_review');
    expect(await runtime.tasks.readFile(id, project.buggyFile, agent)).toBe(
      project.hypotheses.right.edits[0]?.content,
    );
    await expect(runtime.tasks.readFile(id, '../etc/passwd', agent)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    const rejected = await runtime.tasks.review(
      id,
      { verdict: 'reject', sha256: reviewed.diffSha256 ?? '' },
      reviewer,
    );
    expect(rejected.status).toBe('rejected');
    const worktreeFile = await readFile(
      path.join(dataDir, 'worktrees', id, project.buggyFile),
      'utf8',
    );
    expect(worktreeFile).toBe(before);
  });
});
