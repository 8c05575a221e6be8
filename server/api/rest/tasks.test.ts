import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskSummary, TaskView } from '../../tasks/task-api';
import { taskViewSchema } from '../../tasks/task-view-schema';
import { handleGetTask, handleListTasks } from './tasks';
import { expectError, readJson } from './test-support/assertions';
import { createFakeRuntime, type FakeRuntime } from './test-support/fake-runtime';
import { getRequest } from './test-support/requests';

let fake: FakeRuntime;

beforeEach(async () => {
  fake = await createFakeRuntime();
});
afterEach(async () => {
  await fake.dispose();
});

describe('GET /api/v1/tasks', () => {
  it('lists the tasks as {"tasks":[…]}', async () => {
    const first = fake.tasks.addTask({ status: 'iterating' });
    const second = fake.tasks.addTask();
    const response = await handleListTasks(getRequest('/tasks'), fake.deps, undefined);
    const body = await readJson<{ tasks: TaskSummary[] }>(response, 200);
    expect(body.tasks.map((task) => [task.id, task.status])).toEqual([
      [first.id, 'iterating'],
      [second.id, 'queued'],
    ]);
    expect(fake.tasks.listCalls).toEqual([{}]);
  });

  it('passes ?limit= to the service', async () => {
    const response = await handleListTasks(getRequest('/tasks?limit=7'), fake.deps, undefined);
    expect(response.status).toBe(200);
    expect(fake.tasks.listCalls).toEqual([{ limit: 7 }]);
  });

  it.each(['0', '201', '-1', 'ten', '1e2'])('refuses ?limit=%s', async (limit) => {
    const response = await handleListTasks(
      getRequest(`/tasks?limit=${limit}`),
      fake.deps,
      undefined,
    );
    await expectError(response, 400, 'INVALID_ARGUMENT', /limit/);
    expect(fake.tasks.listCalls).toEqual([]);
  });

  it('needs a token', async () => {
    const response = await handleListTasks(getRequest('/tasks', {}), fake.deps, undefined);
    await expectError(response, 401, 'UNAUTHENTICATED');
  });
});

describe('GET /api/v1/tasks/{id}', () => {
  it("returns the TaskView, with the setup and each hypothesis's tests by id", async () => {
    const task = fake.tasks.addTask({
      status: 'awaiting_review',
      baseline: {
        passed: 3,
        failed: 1,
        skipped: 0,
        exitCode: 1,
        durationMs: 1200,
        parsed: true,
        outputTail: '1 failed',
        buildFailed: false,
        failingTests: ['test_calc.py::test_mean'],
        green: false,
      },
      iterations: [
        {
          index: 1,
          status: 'done',
          winner: 'fix',
          checkpointSha: 'b'.repeat(40),
          hypotheses: [
            {
              name: 'fix',
              origin: 'api',
              rank: 1,
              verdict: 'winner',
              passed: 4,
              failed: 0,
              skipped: 0,
              exitCode: 0,
              timedOut: false,
              durationMs: 900,
              changedLines: 2,
              mode: 'overlay',
              outputTail: '4 passed',
              error: null,
              buildFailed: false,
              tests: {
                fixed: ['test_calc.py::test_mean'],
                broken: [],
                stillFailing: [],
                missing: [],
                added: [],
                byId: true,
                counts: { fixed: 1, broken: 0, stillFailing: 0, missing: 0, added: 0 },
              },
              disqualified: null,
              sameTreeAs: null,
            },
          ],
        },
      ],
      setup: {
        commands: [['npm', 'ci']],
        detected: true,
        reasons: ['package-lock.json → npm ci'],
        cached: true,
        durationMs: 800,
        egress: [],
        env: {},
      },
      diffSha256: 'a'.repeat(64),
    });
    const response = await handleGetTask(getRequest(`/tasks/${task.id}`), fake.deps, {
      id: task.id,
    });
    const body = await readJson<TaskView>(response, 200);
    expect(body).toEqual(task);
    // The JSON is a whole TaskView as the one schema has it (the one tRPC and MCP check with).
    expect(taskViewSchema.parse(body)).toStrictEqual(body);
  });

  it('is 404 for an id that cannot be a task id, without asking the service', async () => {
    const response = await handleGetTask(getRequest('/tasks/..%2F..'), fake.deps, {
      id: '../..',
    });
    await expectError(response, 404, 'NOT_FOUND', /^no task "\.\.\/\.\."$/);
  });

  it.each(['ABCDEFGHIJKLMNOPQRSTUVWX', 'short', 'a'.repeat(41)])(
    'is 404 for the malformed id %s',
    async (id) => {
      const response = await handleGetTask(getRequest(`/tasks/${id}`), fake.deps, { id });
      await expectError(response, 404, 'NOT_FOUND', /^no task /);
    },
  );

  it('is 404 for a well-formed id the service does not know', async () => {
    const id = 'c0123456789abcdef01234567';
    const response = await handleGetTask(getRequest(`/tasks/${id}`), fake.deps, { id });
    await expectError(response, 404, 'NOT_FOUND');
  });

  it('needs a valid token', async () => {
    const task = fake.tasks.addTask();
    const response = await handleGetTask(
      getRequest(`/tasks/${task.id}`, { Authorization: 'Bearer wrong' }),
      fake.deps,
      { id: task.id },
    );
    await expectError(response, 401, 'UNAUTHENTICATED');
  });
});
