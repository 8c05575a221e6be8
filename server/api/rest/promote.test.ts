import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tokens } from '../http/test-support/fake-auth';
import type { TaskView } from '../../tasks/task-api';
import { handlePromote } from './promote';
import { expectError, readJson } from './test-support/assertions';
import { createFakeRuntime, type FakeRuntime } from './test-support/fake-runtime';
import { auth, jsonRequest } from './test-support/requests';

let fake: FakeRuntime;
let task: TaskView;

beforeEach(async () => {
  fake = await createFakeRuntime();
  task = fake.tasks.addTask({ status: 'awaiting_review' });
});
afterEach(async () => {
  await fake.dispose();
});

const post = (body: unknown) =>
  handlePromote(
    jsonRequest('POST', `/tasks/${task.id}/promote`, body, auth(tokens.reviewer)),
    fake.deps,
    { id: task.id },
  );

describe('POST /api/v1/tasks/{id}/promote', () => {
  it('passes {"hypothesis","reason"} on (the reason trimmed) and answers the TaskView', async () => {
    const view = await readJson<TaskView>(
      await post({ hypothesis: 'long', reason: ' clearer helper ' }),
      200,
    );
    expect(view.id).toBe(task.id);
    expect(fake.tasks.promoted.map(({ input }) => input)).toEqual([
      { hypothesis: 'long', reason: 'clearer helper' },
    ]);
  });

  it('is 400 for an empty reason and for unknown fields, naming them', async () => {
    await expectError(
      await post({ hypothesis: 'long', reason: '' }),
      400,
      'INVALID_ARGUMENT',
      'reason: say why this hypothesis should be reviewed instead of the ranked winner',
    );
    await expectError(
      await post({ hypothesis: 'long', reason: 'x', force: true }),
      400,
      'INVALID_ARGUMENT',
      'unknown field "force"',
    );
    expect(fake.tasks.promoted).toEqual([]);
  });
});
