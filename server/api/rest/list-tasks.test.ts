import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskSummary } from '../../tasks/task-api';
import { handleListTasks } from './tasks';
import { expectError, readJson } from './test-support/assertions';
import { createFakeRuntime, type FakeRuntime } from './test-support/fake-runtime';
import { getRequest } from './test-support/requests';

/**
 * `GET /api/v1/tasks?…`: the URL's parameters reach the service as its query (several statuses
 * either way), the answer is `{"tasks","nextCursor"}`, and bad input is a 400 naming the
 * parameter. The query itself runs on both databases in server/tasks/list-tasks.integration.test.ts.
 */

let fake: FakeRuntime;

beforeEach(async () => {
  fake = await createFakeRuntime();
});
afterEach(async () => {
  await fake.dispose();
});

const list = (query: string) => handleListTasks(getRequest(`/tasks${query}`), fake.deps, undefined);

describe('GET /api/v1/tasks with a query', () => {
  it('answers {"tasks":[…],"nextCursor":null} without parameters, as before plus the cursor', async () => {
    const task = fake.tasks.addTask();
    const body = await readJson<{ tasks: TaskSummary[]; nextCursor: string | null }>(
      await list(''),
      200,
    );
    expect(Object.keys(body)).toEqual(['tasks', 'nextCursor']);
    expect(body.tasks.map((summary) => summary.id)).toEqual([task.id]);
    expect(body.nextCursor).toBeNull();
  });

  it('passes every parameter on; status as a list, comma-separated or repeated', async () => {
    const response = await list(
      '?status=failed,approved&status=queued&owner=alice&team=red&source=https%3A%2F%2Fx.test%2Fr.git&q=100%25+done&sort=updated&cursor=abc&limit=20',
    );
    expect(response.status).toBe(400); // the cursor is not one the list gave out
    expect(fake.tasks.listCalls).toEqual([
      {
        status: ['failed', 'approved', 'queued'],
        owner: 'alice',
        team: 'red',
        source: 'https://x.test/r.git',
        q: '100% done',
        sort: 'updated',
        cursor: 'abc',
        limit: 20,
      },
    ]);
  });

  it('filters by status through the service', async () => {
    fake.tasks.addTask({ status: 'failed' });
    const queued = fake.tasks.addTask();
    const body = await readJson<{ tasks: TaskSummary[] }>(await list('?status=queued'), 200);
    expect(body.tasks.map((summary) => summary.id)).toEqual([queued.id]);
  });

  it.each([
    ['?status=done', /^status: /],
    ['?status=', /^status: /],
    ['?sort=oldest', /^sort: /],
    ['?limit=0', /^limit: /],
    ['?limit=201', /^limit: /],
    ['?limit=ten', /^limit must be a whole number/],
    ['?q=', /^q: /],
    [`?q=${'x'.repeat(201)}`, /^q: /],
    ['?owner=%20', /^owner: /],
    ['?team=a&team=b', /^team: give it once/],
    ['?colour=red', /unknown parameter colour/],
    ['?cursor=bm90IGEgY3Vyc29y', /^cursor: /],
  ])('refuses %s with a 400 naming the parameter', async (query, message) => {
    await expectError(await list(query), 400, 'INVALID_ARGUMENT', message);
  });
});
