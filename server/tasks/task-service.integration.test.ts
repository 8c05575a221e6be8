import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type ServerRuntime } from '../runtime';
import type { StoredEvent } from '../db/event-store';
import { fixtureProject, packProject } from '../test-support/projects';
import type { TaskView } from './task-api';

const project = fixtureProject('pytest-calc');
const agent = { kind: 'token', tokenId: 'agent-1', scopes: ['agent'] } as const;
const reviewer = { kind: 'token', tokenId: 'reviewer-1', scopes: ['reviewer'] } as const;

let dataDir: string;
let runtime: ServerRuntime;

async function waitFor(
  taskId: string,
  done: (task: TaskView) => boolean,
  timeoutMs = 120_000,
): Promise<TaskView> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const task = await runtime.tasks.getTask(taskId);
    if (done(task)) return task;
    if (Date.now() > until) throw new Error(`timed out; task is ${JSON.stringify(task, null, 1)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function createFromArchive(): Promise<string> {
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
    },
    agent,
  );
  return id;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-service-'));
  runtime = await createRuntime(
    {
      dataDir,
      host: '127.0.0.1',
      port: 0,
      database: { provider: 'sqlite', file: path.join(dataDir, 'db.sqlite') },
    },
    { gatherMs: 500 },
  );
});

afterAll(async () => {
  await runtime.close();
  await rm(dataDir, { recursive: true, force: true });
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

    const diff = await runtime.tasks.getDiff(id);
    expect(diff.sha256).toBe(reviewed.diffSha256);
    await expect(
      runtime.tasks.review(id, { verdict: 'approve', sha256: diff.sha256 }, agent),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      runtime.tasks.review(id, { verdict: 'approve', sha256: '0'.repeat(64) }, reviewer),
    ).rejects.toMatchObject({ code: 'STALE_DIFF' });
    expect((await runtime.tasks.getTask(id)).status).toBe('awaiting_review');
    const approved = await runtime.tasks.review(
      id,
      { verdict: 'approve', sha256: diff.sha256 },
      reviewer,
    );
    expect(approved.status).toBe('approved');
    const worktreeFile = await readFile(
      path.join(dataDir, 'worktrees', id, project.buggyFile),
      'utf8',
    );
    expect(worktreeFile).toBe(right.edits[0]?.content);

    const controller = new AbortController();
    const events: StoredEvent[] = [];
    for await (const event of runtime.tasks.events(id, 0, controller.signal)) {
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
  });
});
