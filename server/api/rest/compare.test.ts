import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskView } from '../../tasks/task-api';
import { handleCompare, handleCompareCell } from './compare';
import { expectError, readJson } from './test-support/assertions';
import { createFakeRuntime, type FakeRuntime } from './test-support/fake-runtime';
import { getRequest } from './test-support/requests';

let fake: FakeRuntime;
let task: TaskView;

beforeEach(async () => {
  fake = await createFakeRuntime();
  task = fake.tasks.addTask();
});
afterEach(async () => {
  await fake.dispose();
});

const compare = (query: string) =>
  handleCompare(getRequest(`/tasks/${task.id}/compare${query}`), fake.deps, { id: task.id });

describe('GET /api/v1/tasks/{id}/compare', () => {
  it('answers the whole task without `iteration`, as the service gives it', async () => {
    const body = await readJson<Record<string, unknown>>(await compare(''), 200);
    expect(body).toEqual({
      taskId: task.id,
      iteration: null,
      iterations: 0,
      columns: [],
      rows: [],
    });
    expect(fake.tasks.readers.at(-1)).toMatchObject({ method: 'compare', taskId: task.id });
  });

  it('is 404 naming an iteration the task does not have', async () => {
    const response = await compare('?iteration=3');
    const body = await expectError(response, 404, 'NOT_FOUND');
    expect(JSON.stringify(body)).toContain(`task ${task.id} has no iteration 3`);
  });

  it.each(['?iteration=abc', '?iteration=0', '?iteration=-1', '?iteration=1.5'])(
    'is 400 for %s',
    async (query) => {
      const body = await expectError(await compare(query), 400, 'INVALID_ARGUMENT');
      expect(JSON.stringify(body)).toContain('iteration');
    },
  );

  it('needs a token', async () => {
    const response = await handleCompare(getRequest(`/tasks/${task.id}/compare`, {}), fake.deps, {
      id: task.id,
    });
    await expectError(response, 401, 'UNAUTHENTICATED');
  });
});

describe('GET /api/v1/tasks/{id}/compare/cell', () => {
  const runId = 'c'.repeat(25);
  const cell = (query: string) =>
    handleCompareCell(getRequest(`/tasks/${task.id}/compare/cell${query}`), fake.deps, {
      id: task.id,
    });

  it("answers the cell's lines", async () => {
    const body = await readJson<Record<string, unknown>>(
      await cell(`?run=${runId}&test=${encodeURIComponent('t.py::a b')}`),
      200,
    );
    expect(body).toMatchObject({ runId, test: 't.py::a b', lines: [] });
  });

  it('is 400 without a run or a test, or with a bad run id', async () => {
    await expectError(await cell(`?run=${runId}`), 400, 'INVALID_ARGUMENT');
    await expectError(await cell('?run=../x&test=a'), 400, 'INVALID_ARGUMENT');
  });
});
