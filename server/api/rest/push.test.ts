import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliActor } from '../../auth/actor';
import type { TaskView } from '../../tasks/task-api';
import { handlePush } from './push';
import { expectError, readJson } from './test-support/assertions';
import { createFakeRuntime, type FakeRuntime } from './test-support/fake-runtime';
import { jsonRequest } from './test-support/requests';

let fake: FakeRuntime;
let task: TaskView;

beforeEach(async () => {
  fake = await createFakeRuntime();
  task = fake.tasks.addTask();
  const sha256 = fake.tasks.setDiff(task.id, 'diff --git a/x b/x\n');
  await fake.tasks.review(task.id, { verdict: 'approve', sha256 }, cliActor);
});
afterEach(async () => {
  await fake.dispose();
});

const push = (body: unknown) =>
  handlePush(jsonRequest('POST', `/tasks/${task.id}/push`, body), fake.deps, { id: task.id });

describe('POST /api/v1/tasks/{id}/push', () => {
  it('answers {"remote","branch","commit","sha256"}, the branch shadowbox/<id> by default', async () => {
    const body = await readJson<Record<string, unknown>>(await push({ remote: 'origin' }), 200);
    expect(body).toMatchObject({ remote: 'origin', branch: `shadowbox/${task.id}` });
    expect(fake.tasks.pushes.map((p) => p.input)).toEqual([{ remote: 'origin' }]);
  });

  it.each([
    [{}, /remote/],
    [{ remote: 'origin', branch: '--upload-pack=x' }, /branch/],
    [{ remote: 'origin', branch: 'a..b' }, /branch/],
    [{ remote: 'origin', branch: 'a b' }, /branch/],
    [{ remote: 'origin', force: true }, /force/],
  ])('refuses %o, naming the field', async (body, field) => {
    await expectError(await push(body), 400, 'INVALID_ARGUMENT', field);
    expect(fake.tasks.pushes).toEqual([]);
  });
});
