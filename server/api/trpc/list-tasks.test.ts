import { TRPCError } from '@trpc/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeUser } from '../../test-support/actors';
import { FakeTaskService } from '../http/test-support/fake-tasks';
import { createContextInner } from './context';
import { createCaller } from './root';

/**
 * `tasks.list` takes REST's query and what useInfiniteQuery adds to it (the first page's null
 * cursor, a direction), hands the service only the query, and refuses bad input by name.
 */

let tasks: FakeTaskService;

beforeEach(() => {
  tasks = new FakeTaskService();
});

const caller = () =>
  createCaller(createContextInner({ runtime: { tasks }, actor: fakeUser('rita'), origin: 'ui' }));

describe('tasks.list', () => {
  it('answers {tasks, nextCursor}', async () => {
    const task = tasks.addTask({ status: 'failed' });
    tasks.addTask();
    const page = await caller().tasks.list({ status: ['failed'] });
    expect(page).toEqual({ tasks: [expect.objectContaining({ id: task.id })], nextCursor: null });
  });

  it("takes useInfiniteQuery's first page (cursor null, a direction) and passes the query on", async () => {
    await caller().tasks.list({ q: 'parser', cursor: null, direction: 'forward' });
    await caller()
      .tasks.list({ sort: 'updated', cursor: 'abc', direction: 'forward' })
      .catch(() => null);
    expect(tasks.listCalls).toEqual([
      { q: 'parser', sort: 'created', limit: 100, scope: 'tasks' },
      { sort: 'updated', limit: 100, cursor: 'abc', scope: 'tasks' },
    ]);
  });

  it('refuses a bad parameter, naming it', async () => {
    const refused = await caller()
      .tasks.list({ limit: 1000 })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).code).toBe('BAD_REQUEST');
    expect(JSON.stringify((refused as TRPCError).cause)).toMatch(/limit/);
  });
});
