import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ThreadListView, ThreadView } from '../../reviews';
import type { TaskView } from '../../tasks/task-api';
import { tokenActors, tokens } from '../http/test-support/fake-auth';
import type { ThreadParams } from './handler';
import { serveTaskRoute } from './route';
import {
  handleListThreads,
  handleReopenThread,
  handleReplyToThread,
  handleResolveThread,
} from './threads';
import { expectError, readJson } from './test-support/assertions';
import { createFakeRuntime, type FakeRuntime } from './test-support/fake-runtime';
import { auth, base, getRequest, jsonRequest } from './test-support/requests';

let fake: FakeRuntime;
let task: TaskView;
let sha256: string;
let thread: ThreadView;

beforeEach(async () => {
  fake = await createFakeRuntime();
  task = fake.tasks.addTask();
  sha256 = fake.tasks.setDiff(task.id, 'diff --git a/calc.py b/calc.py\n');
  thread = fake.reviews.addThread(task.id, { diffSha256: sha256 });
});
afterEach(async () => {
  await fake.dispose();
});

const unknownId = 'c000000000000000000000000';

describe('GET /api/v1/tasks/{id}/threads', () => {
  it('answers {"diffSha256","threads"}: open and resolved first, then the outdated', async () => {
    const outdated = fake.reviews.addThread(task.id, {
      path: 'a.py',
      status: 'outdated',
      outdatedReason: 'its lines were rewritten',
    });
    const resolved = fake.reviews.addThread(task.id, { path: 'z.py', status: 'resolved' });
    const response = await handleListThreads(getRequest(`/tasks/${task.id}/threads`), fake.deps, {
      id: task.id,
    });
    const body = await readJson<ThreadListView>(response, 200);
    expect(Object.keys(body)).toEqual(['diffSha256', 'threads']);
    expect(body.diffSha256).toBe(sha256);
    expect(body.threads.map((t) => t.id)).toEqual([thread.id, resolved.id, outdated.id]);
    expect(body.threads[0]).toEqual(thread);
    expect(fake.reviews.readers).toEqual([{ taskId: task.id, actor: tokenActors.agent }]);
  });

  it('is 404 for an id that is not a cuid, and for an unknown task', async () => {
    for (const id of ['not-a-task', unknownId]) {
      const response = await handleListThreads(getRequest(`/tasks/${id}/threads`), fake.deps, {
        id,
      });
      await expectError(response, 404, 'NOT_FOUND');
    }
  });

  it('needs a token', async () => {
    const response = await handleListThreads(
      getRequest(`/tasks/${task.id}/threads`, {}),
      fake.deps,
      {
        id: task.id,
      },
    );
    await expectError(response, 401, 'UNAUTHENTICATED');
  });
});

describe('POST /api/v1/tasks/{id}/threads/{threadId}/comments', () => {
  function reply(
    body: unknown,
    token: string = tokens.agent,
    params: ThreadParams = { id: task.id, threadId: thread.id },
  ): Promise<Response> {
    return handleReplyToThread(
      jsonRequest(
        'POST',
        `/tasks/${params.id}/threads/${params.threadId}/comments`,
        body,
        auth(token),
      ),
      fake.deps,
      params,
    );
  }

  it("takes an agent's reply: 201 with the ThreadView", async () => {
    const view = await readJson<ThreadView>(await reply({ body: 'fixed in fix-2' }), 201);
    expect(view.id).toBe(thread.id);
    expect(view.comments.map((c) => [c.author, c.authorKind, c.body])).toEqual([
      ['rita', 'person', 'this subtracts'],
      ['alice (token:tok-agent)', 'agent', 'fixed in fix-2'],
    ]);
    expect(fake.reviews.replies).toEqual([
      { taskId: task.id, threadId: thread.id, body: 'fixed in fix-2', actor: tokenActors.agent },
    ]);
  });

  it('refuses an empty body and unknown fields, naming them', async () => {
    await expectError(
      await reply({ body: ' \n ' }),
      400,
      'INVALID_ARGUMENT',
      /^body: a comment may not be empty$/,
    );
    await expectError(
      await reply({ body: 'x', resolve: true }),
      400,
      'INVALID_ARGUMENT',
      /unknown field "resolve"/,
    );
    await expectError(
      await reply({ body: 'x'.repeat(20_001) }),
      400,
      'INVALID_ARGUMENT',
      /^body: a comment may hold at most 20,000 characters$/,
    );
    expect(fake.reviews.replies).toEqual([]);
  });

  it('is 404 for a thread id that is not a cuid, before the body is read', async () => {
    await expectError(
      await reply('not json', tokens.agent, { id: task.id, threadId: '../../x' }),
      404,
      'NOT_FOUND',
      /^no thread "\.\.\/\.\.\/x"$/,
    );
  });

  it('is 404 for a thread of another task', async () => {
    const other = fake.tasks.addTask();
    await expectError(
      await reply({ body: 'x' }, tokens.agent, { id: other.id, threadId: thread.id }),
      404,
      'NOT_FOUND',
      `no thread ${thread.id} in task ${other.id}`,
    );
  });
});

describe.each([
  ['resolve', handleResolveThread, 'open', 'resolved'],
  ['reopen', handleReopenThread, 'resolved', 'open'],
] as const)('POST /api/v1/tasks/{id}/threads/{threadId}/%s', (action, handle, from, to) => {
  function act(token: string, params: ThreadParams = { id: task.id, threadId: thread.id }) {
    return handle(
      new Request(`${base}/tasks/${params.id}/threads/${params.threadId}/${action}`, {
        method: 'POST',
        headers: auth(token),
      }),
      fake.deps,
      params,
    );
  }

  beforeEach(() => {
    thread = fake.reviews.addThread(task.id, { status: from });
  });

  it(`${action}s the thread for a reviewer token: 200 with the ThreadView`, async () => {
    const view = await readJson<ThreadView>(await act(tokens.reviewer), 200);
    expect(view).toMatchObject({
      id: thread.id,
      status: to,
      resolvedBy: to === 'resolved' ? 'rita (token:tok-reviewer)' : null,
    });
    expect(fake.reviews.statusChanges).toEqual([
      { taskId: task.id, threadId: thread.id, action, actor: tokenActors.reviewer },
    ]);
  });

  it("is 403 for an agent token, with the service's reason", async () => {
    const error = await expectError(await act(tokens.agent), 403, 'FORBIDDEN');
    expect(error.message).toBe(
      `an agent cannot ${action} a thread: it replies, and a reviewer ${action === 'resolve' ? 'resolves' : 'reopens'} it`,
    );
    expect(fake.reviews.thread(thread.id)?.status).toBe(from);
  });

  it(`is 409 INVALID_STATE for a thread that is already ${to}`, async () => {
    await readJson<ThreadView>(await act(tokens.reviewer), 200);
    await expectError(await act(tokens.reviewer), 409, 'INVALID_STATE', new RegExp(`is ${to}`));
  });

  it('is 404 for ids that are not cuids, and for an unknown thread', async () => {
    await expectError(
      await act(tokens.reviewer, { id: 'x', threadId: thread.id }),
      404,
      'NOT_FOUND',
      /^no task "x"$/,
    );
    await expectError(
      await act(tokens.reviewer, { id: task.id, threadId: 'THREAD' }),
      404,
      'NOT_FOUND',
      /^no thread "THREAD"$/,
    );
    await expectError(
      await act(tokens.reviewer, { id: task.id, threadId: unknownId }),
      404,
      'NOT_FOUND',
    );
  });

  it('needs a token', async () => {
    await expectError(await act('nobody'), 401, 'UNAUTHENTICATED');
  });
});

describe('route glue for nested segments', () => {
  it('passes {id, threadId} from the awaited params to the handler', async () => {
    const response = await serveTaskRoute(
      jsonRequest('POST', `/tasks/${task.id}/threads/${thread.id}/comments`, { body: 'done' }),
      { params: Promise.resolve({ id: task.id, threadId: thread.id }) },
      () => Promise.resolve(fake.runtime),
      handleReplyToThread,
    );
    expect((await readJson<ThreadView>(response, 201)).comments).toHaveLength(2);
  });
});
