import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskView } from '../../tasks/task-api';
import { handleCancelTask } from './cancel';
import { tokenActors } from '../http/test-support/fake-auth';
import { expectError, readJson } from './test-support/assertions';
import { createFakeRuntime, type FakeRuntime } from './test-support/fake-runtime';
import { auth, base } from './test-support/requests';

let fake: FakeRuntime;

beforeEach(async () => {
  fake = await createFakeRuntime();
});
afterEach(async () => {
  await fake.dispose();
});

function cancel(id: string, headers: Record<string, string> = auth()): Promise<Response> {
  const request = new Request(`${base}/tasks/${id}/cancel`, { method: 'POST', headers });
  return handleCancelTask(request, fake.deps, { id });
}

describe('POST /api/v1/tasks/{id}/cancel', () => {
  it('cancels: 200 with the TaskView', async () => {
    const task = fake.tasks.addTask({ status: 'iterating' });
    const view = await readJson<TaskView>(await cancel(task.id), 200);
    expect(view).toMatchObject({ id: task.id, status: 'cancelled' });
    expect(fake.tasks.cancelled).toEqual([{ taskId: task.id, actor: tokenActors.agent }]);
  });

  it('is 404 for an unknown task and for a malformed id', async () => {
    await expectError(await cancel('c222222222222222222222222'), 404, 'NOT_FOUND');
    await expectError(await cancel('x'), 404, 'NOT_FOUND', /^no task "x"$/);
    expect(fake.tasks.cancelled).toEqual([]);
  });

  it('needs a token', async () => {
    const task = fake.tasks.addTask();
    await expectError(await cancel(task.id, {}), 401, 'UNAUTHENTICATED');
    expect(fake.tasks.cancelled).toEqual([]);
  });
});
