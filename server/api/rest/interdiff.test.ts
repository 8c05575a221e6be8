import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskView } from '../../tasks/task-api';
import { handleInterdiff } from './interdiff';
import { expectError } from './test-support/assertions';
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

const get = (query: string) =>
  handleInterdiff(getRequest(`/tasks/${task.id}/interdiff${query}`), fake.deps, { id: task.id });

describe('GET /api/v1/tasks/{id}/interdiff', () => {
  it('answers the unified diff as text/x-diff, the refs parsed', async () => {
    const response = await get(
      `?a=${encodeURIComponent('hypothesis:1/fix add')}&b=${encodeURIComponent('checkpoint:0')}`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/x-diff; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('--- hypothesis:1/fix add\n+++ checkpoint:0\n');
    expect(fake.tasks.interdiffs.map((call) => call.query)).toEqual([
      {
        a: { kind: 'hypothesis', iteration: 1, name: 'fix add' },
        b: { kind: 'checkpoint', iteration: 0 },
      },
    ]);
  });

  it('is 400 naming a malformed or missing ref', async () => {
    await expectError(
      await get('?a=HEAD&b=checkpoint:1'),
      400,
      'INVALID_ARGUMENT',
      'a: "HEAD" is not a ref: use checkpoint:<iteration>, hypothesis:<iteration>/<name> or hypothesis:<id>',
    );
    await expectError(
      await get('?a=checkpoint:1'),
      400,
      'INVALID_ARGUMENT',
      'b: give a ref: checkpoint:<iteration>, hypothesis:<iteration>/<name> or hypothesis:<id>',
    );
    expect(fake.tasks.interdiffs).toEqual([]);
  });

  it('needs a token', async () => {
    const response = await handleInterdiff(
      getRequest(`/tasks/${task.id}/interdiff?a=checkpoint:0&b=checkpoint:1`, {}),
      fake.deps,
      { id: task.id },
    );
    await expectError(response, 401, 'UNAUTHENTICATED');
  });
});
