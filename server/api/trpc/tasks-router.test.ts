import { isTrackedEnvelope, TRPCError, type TrackedEnvelope } from '@trpc/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../errors/app-error';
import type { Actor } from '../../tasks/task-api';
import { fakeUser } from '../../test-support/actors';
import { FakeTaskService } from '../http/test-support/fake-tasks';
import { createContextInner } from './context';
import type { RequestOrigin } from './request-guard';
import { createCaller } from './root';

let tasks: FakeTaskService;
let aborter: AbortController;

beforeEach(() => {
  tasks = new FakeTaskService();
  aborter = new AbortController();
});
afterEach(() => {
  aborter.abort();
});

/** The person signed in to the page (the session cookie's). */
const rita = fakeUser('rita', 'reviewer');

function caller(origin: RequestOrigin = 'ui', actor: Actor | null = rita) {
  return createCaller(createContextInner({ runtime: { tasks }, actor, origin }), {
    signal: aborter.signal,
  });
}

/** The AppError code a call was refused with. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const cause = (error as TRPCError).cause;
  if (isAppError(cause)) return cause.code;
  return (error as TRPCError).code;
}

/** Reads `count` values from a subscription, then stops it. */
async function take<T>(iterable: AsyncIterable<T>, count: number): Promise<T[]> {
  const values: T[] = [];
  if (count === 0) return values;
  for await (const value of iterable) {
    values.push(value);
    if (values.length === count) break;
  }
  return values;
}

interface Item {
  readonly seq: number;
  readonly event: { readonly type: string };
}

/** A server-side caller sees the `tracked()` envelopes themselves (the client sees `{id, data}`). */
function untrack(value: unknown): [string, Item] {
  expect(isTrackedEnvelope(value)).toBe(true);
  const [id, item] = value as TrackedEnvelope<Item>;
  return [id, item];
}

describe('tasks router', () => {
  it('lists tasks and reads one', async () => {
    const task = tasks.addTask({ status: 'awaiting_hypotheses' });
    const list = await caller().tasks.list();
    expect(list.tasks.map((summary) => [summary.id, summary.status])).toEqual([
      [task.id, 'awaiting_hypotheses'],
    ]);
    const view = await caller().tasks.get({ taskId: task.id });
    expect(view.testCommand).toEqual(['pytest', '-q']);
  });

  it("returns the fixer, the spend, the plan and the reviewer model's comments", async () => {
    const task = tasks.addTask({
      status: 'awaiting_review',
      fixer: 'llm',
      allowTestEdits: true,
      spend: { tokens: 1234, costMicroUsd: 2600, maxTokens: 200_000 },
      plan: [
        {
          index: 1,
          title: 'Fix add',
          scope: 'src/calc.py',
          status: 'open',
          doneAt: null,
          gates: [
            {
              argv: ['pytest', '-q'],
              lastRun: {
                green: false,
                exitCode: 1,
                commitSha: 'a'.repeat(40),
                at: '2026-11-02T10:03:00.000Z',
                current: false,
              },
            },
            { argv: ['ruff', 'check'], lastRun: null },
          ],
        },
      ],
      diffSha256: 'f'.repeat(64),
      reviewComments: [
        { reviewer: 'model-x', verdict: 'unsure', comment: 'Hm.', diffSha256: 'f'.repeat(64) },
      ],
    });
    // The output schema strips what it does not name: the whole view must come through.
    expect(await caller().tasks.get({ taskId: task.id })).toEqual(task);
    expect(await caller().tasks.cancel({ taskId: task.id })).toMatchObject({
      spend: task.spend,
      plan: task.plan,
      reviewComments: task.reviewComments,
    });
  });

  it('creates a task from a Git URL as the signed-in person', async () => {
    const { id } = await caller().tasks.create({
      gitUrl: 'https://example.com/repo.git',
      ref: 'main',
      testCommand: ['python3', '-m', 'pytest', '-q'],
      maxIterations: 2,
    });
    expect(tasks.created).toEqual([
      expect.objectContaining({
        id,
        actor: rita,
        input: expect.objectContaining({
          source: { kind: 'git', url: 'https://example.com/repo.git', ref: 'main' },
          testCommand: ['python3', '-m', 'pytest', '-q'],
          maxIterations: 2,
        }) as unknown,
      }),
    ]);
  });

  it('passes the setup commands, the build command and the known failures through', async () => {
    await caller().tasks.create({
      gitUrl: 'https://example.com/repo.git',
      testCommand: ['npm', 'test'],
      setupCommands: [],
      buildCommand: ['npx', 'tsc', '-p', '.'],
      knownFailures: ['net > downloads'],
    });
    expect(tasks.created[0]?.input).toMatchObject({
      setupCommands: [],
      buildCommand: ['npx', 'tsc', '-p', '.'],
      knownFailures: ['net > downloads'],
    });
    const refused = await caller()
      .tasks.create({
        gitUrl: 'https://example.com/repo.git',
        testCommand: ['npm', 'test'],
        setupCommands: [[]],
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).message).toMatch(/a setup command needs at least the program/);
    expect(tasks.created).toHaveLength(1);
  });

  it('refuses bad input before the service sees it', async () => {
    expect(await refusal(caller().tasks.create({ gitUrl: 'x', testCommand: [] }))).toBe(
      'BAD_REQUEST',
    );
    expect(await refusal(caller().tasks.get({ taskId: '../etc' }))).toBe('BAD_REQUEST');
    expect(tasks.created).toEqual([]);
  });

  it('submits a hypothesis written in the browser', async () => {
    const task = tasks.addTask({ status: 'awaiting_hypotheses' });
    const result = await caller().tasks.submitHypothesis({
      taskId: task.id,
      hypothesis: { name: 'fix-add', edits: [{ path: 'calc.py', content: 'x = 1\n' }] },
    });
    expect(result.accepted).toEqual(['fix-add']);
    expect(tasks.submitted[0]?.actor).toEqual(rita);
    expect(tasks.submitted[0]?.hypotheses).toEqual([
      { name: 'fix-add', edits: [{ path: 'calc.py', content: 'x = 1\n' }], delete: [] },
    ]);
  });

  it('approves only the diff whose hash was shown', async () => {
    const task = tasks.addTask();
    const shown = tasks.setDiff(task.id, 'diff --git a/x b/x\n');
    const current = tasks.setDiff(task.id, 'diff --git a/y b/y\n');
    const stale = caller().tasks.review({ taskId: task.id, verdict: 'approve', sha256: shown });
    expect(await refusal(stale)).toBe('STALE_DIFF');
    const view = await caller().tasks.review({
      taskId: task.id,
      verdict: 'approve',
      sha256: current,
    });
    expect(view.status).toBe('approved');
    expect(view.approvedDiffSha256).toBe(current);
  });

  it('cancels and rolls back as the signed-in person', async () => {
    const task = tasks.addTask({ status: 'iterating' });
    expect((await caller().tasks.cancel({ taskId: task.id })).status).toBe('cancelled');
    await caller().tasks.rollback({ taskId: task.id });
    expect(tasks.cancelled).toEqual([{ taskId: task.id, actor: rita }]);
    expect(tasks.rolledBack).toEqual([{ taskId: task.id, actor: rita }]);
  });

  it('reopens an approved task as the signed-in person', async () => {
    const task = tasks.addTask();
    const sha256 = tasks.setDiff(task.id, 'diff --git a/x b/x\n');
    await caller().tasks.review({ taskId: task.id, verdict: 'approve', sha256 });
    const view = await caller().tasks.reopen({ taskId: task.id });
    expect(view).toMatchObject({ status: 'awaiting_review', approvedDiffSha256: null });
    expect(tasks.reopened).toEqual([{ taskId: task.id, actor: rita }]);
  });

  it('hands the service the signed-in person for every read', async () => {
    const task = tasks.addTask();
    tasks.setDiff(task.id, 'diff --git a/x b/x\n');
    tasks.files.set(task.id, new Map([['a.txt', 'a\n']]));
    tasks.emit(task.id, 'task.preparing');
    await caller().tasks.list();
    await caller().tasks.get({ taskId: task.id });
    await caller().tasks.diff({ taskId: task.id });
    await caller().tasks.listFiles({ taskId: task.id });
    await caller().tasks.readFile({ taskId: task.id, path: 'a.txt' });
    await take(await caller().tasks.events({ taskId: task.id }), 1);
    expect(tasks.readers.map((read) => [read.method, read.actor])).toEqual([
      ['listTasks', rita],
      ['getTask', rita],
      ['getDiff', rita],
      ['listFiles', rita],
      ['readFile', rita],
      // The stream answers NOT_FOUND at once for a task the person may not see.
      ['getTask', rita],
      ['events', rita],
    ]);
  });

  it('serves the diff with its hash and flags, and the workspace files', async () => {
    const task = tasks.addTask();
    const sha256 = tasks.setDiff(task.id, 'diff --git a/x b/x\n');
    const diff = await caller().tasks.diff({ taskId: task.id });
    expect(diff.sha256).toBe(sha256);
    expect(diff.flags.disabledTests).toEqual([]);
    tasks.files.set(task.id, new Map([['src/calc.py', 'def add(a, b):\n']]));
    expect(await caller().tasks.listFiles({ taskId: task.id })).toEqual([
      { path: 'src/calc.py', size: 15, executable: false },
    ]);
    expect(await caller().tasks.readFile({ taskId: task.id, path: 'src/calc.py' })).toEqual({
      path: 'src/calc.py',
      content: 'def add(a, b):\n',
    });
    expect(await refusal(caller().tasks.readFile({ taskId: task.id, path: 'nope' }))).toBe(
      'NOT_FOUND',
    );
  });

  it('streams events as tracked TaskEvents and resumes after lastEventId', async () => {
    const task = tasks.addTask();
    tasks.emit(task.id, 'task.created', { testCommand: ['pytest'] });
    tasks.emit(task.id, 'task.preparing');
    tasks.emit(task.id, 'baseline.started', { command: ['pytest'] });

    const all = (await take(await caller().tasks.events({ taskId: task.id }), 3)).map(untrack);
    expect(all.map(([id, item]) => [id, item.seq, item.event.type])).toEqual([
      ['1', 1, 'task.created'],
      ['2', 2, 'task.preparing'],
      ['3', 3, 'baseline.started'],
    ]);
    expect(all[2]?.[1].event).toEqual({ type: 'baseline.started', command: ['pytest'] });

    const resumed = await caller().tasks.events({ taskId: task.id, lastEventId: '2' });
    const live = take(resumed, 2);
    tasks.emit(task.id, 'iteration.started', { index: 1 });
    expect((await live).map((value) => untrack(value)[0])).toEqual(['3', '4']);
    await expect.poll(() => tasks.openEventStreams).toBe(0);
  });

  it('refuses an event stream for an unknown task at once', async () => {
    const stream = caller().tasks.events({ taskId: 'c0123456789abcdef01234567' });
    expect(await refusal(stream)).toBe('NOT_FOUND');
  });

  it('notifies the list of changes to any task', async () => {
    const task = tasks.addTask();
    const changes = take(await caller().tasks.changes(), 1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    tasks.emit(task.id, 'task.preparing');
    expect(await changes).toEqual([{ taskId: task.id, seq: 1 }]);
  });
});

describe('the browser guard', () => {
  it('refuses every task call, streams included, to a caller who has not signed in', async () => {
    const task = tasks.addTask();
    expect(await refusal(caller('ui', null).tasks.list())).toBe('UNAUTHENTICATED');
    expect(await refusal(caller('ui', null).tasks.get({ taskId: task.id }))).toBe(
      'UNAUTHENTICATED',
    );
    expect(await refusal(caller('ui', null).tasks.cancel({ taskId: task.id }))).toBe(
      'UNAUTHENTICATED',
    );
    expect(await refusal(caller('ui', null).tasks.events({ taskId: task.id }))).toBe(
      'UNAUTHENTICATED',
    );
    expect(tasks.cancelled).toEqual([]);
    expect(tasks.readers).toEqual([]);
  });

  it('refuses calls without the UI header, except event streams', async () => {
    const task = tasks.addTask();
    expect(await refusal(caller('unmarked').tasks.get({ taskId: task.id }))).toBe('FORBIDDEN');
    expect(await refusal(caller('unmarked').tasks.cancel({ taskId: task.id }))).toBe('FORBIDDEN');
    tasks.emit(task.id, 'task.preparing');
    const events = await take(await caller('unmarked').tasks.events({ taskId: task.id }), 1);
    expect(events).toHaveLength(1);
  });

  it('refuses cross-site requests everywhere', async () => {
    const task = tasks.addTask();
    const events = caller('cross-site').tasks.events({ taskId: task.id });
    expect(await refusal(events)).toBe('FORBIDDEN');
    expect(await refusal(caller('cross-site').tasks.list())).toBe('FORBIDDEN');
    expect(tasks.cancelled).toEqual([]);
  });
});
