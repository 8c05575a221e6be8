import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent } from '../db/event-store';
import { worktreePath, workspaceLayout } from '../engine/workspace';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import { userIn } from '../test-support/actors';
import type { Actor } from './task-api';

/**
 * A task's events and view carry the server's own paths (its worktree, its data directory): run
 * output names them in every stack trace. Only administrators see them; everyone else who sees
 * the task reads `<worktree>` and `<data>`.
 */
describe('server paths in what a task shows', () => {
  let scratch: ScratchRuntime;
  let admin: Actor;
  let reviewer: Actor;
  let taskId: string;
  let worktree: string;

  beforeAll(async () => {
    scratch = await openScratchRuntime('sbx-paths-', { taskConcurrency: 1 });
    const { db } = scratch.runtime;
    admin = await userIn(db, 'root', 'admin');
    reviewer = await userIn(db, 'rita', 'reviewer');
    const task = await db.task.create({
      data: {
        status: 'failed',
        sourceKind: 'archive',
        archiveName: 'p.tar',
        testCommand: ['true'],
        ownerId: reviewer.kind === 'cli' ? null : reviewer.person.id,
      },
    });
    taskId = task.id;
    const layout = workspaceLayout(scratch.dataDir);
    worktree = worktreePath(layout, taskId);
    await db.task.update({
      where: { id: taskId },
      data: { error: `setup failed in ${worktree}/node_modules (cache ${scratch.dataDir}/cache)` },
    });
    await appendEvent(db, taskId, 'workspace.ready', {
      baselineCommit: 'a'.repeat(40),
      worktreePath: worktree,
      mode: 'overlay',
      fallbackReason: null,
    });
    await appendEvent(db, taskId, 'run.output', {
      subject: { kind: 'baseline' },
      iteration: 0,
      lines: [`  File "${path.join(worktree, 'calc.py')}", line 3, in add`],
    });
  }, 120_000);

  afterAll(async () => {
    await scratch.close();
  });

  async function eventsAs(actor: Actor): Promise<unknown[]> {
    const controller = new AbortController();
    const seen: unknown[] = [];
    for await (const event of scratch.runtime.tasks.events(taskId, 0, controller.signal, actor)) {
      seen.push(event.payload);
      if (seen.length === 2) controller.abort();
    }
    return seen;
  }

  it('replaces them for a reviewer, in the view and in every event', async () => {
    const view = await scratch.runtime.tasks.getTask(taskId, reviewer);
    expect(view.error).toBe('setup failed in <worktree>/node_modules (cache <data>/cache)');
    const [ready, output] = await eventsAs(reviewer);
    expect(ready).toMatchObject({ worktreePath: '<worktree>' });
    expect(output).toMatchObject({ lines: ['  File "<worktree>/calc.py", line 3, in add'] });
    expect(JSON.stringify([view, ready, output])).not.toContain(scratch.dataDir);
  });

  it('shows them to an administrator', async () => {
    const view = await scratch.runtime.tasks.getTask(taskId, admin);
    expect(view.error).toBe(
      `setup failed in ${worktree}/node_modules (cache ${scratch.dataDir}/cache)`,
    );
    const [ready] = await eventsAs(admin);
    expect(ready).toMatchObject({ worktreePath: worktree });
  });
});
