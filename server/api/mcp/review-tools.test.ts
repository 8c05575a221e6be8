import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ThreadView } from '../../reviews';
import type { TaskView } from '../../tasks/task-api';
import {
  agentActor,
  call,
  cliActor,
  connectInMemory,
  errorOf,
  reviewerOnlyActor,
  textOf,
} from './test-support/clients';
import { createFakeServices, type FakeServices } from './test-support/fake-services';

/** The part of a JSON Schema the tests read. */
interface JsonSchema {
  readonly properties?: Record<string, JsonSchema>;
  readonly items?: JsonSchema;
}

let services: FakeServices;
let task: TaskView;
let sha256: string;
let thread: ThreadView;

beforeEach(async () => {
  services = await createFakeServices();
  task = services.tasks.addTask();
  sha256 = services.tasks.setDiff(task.id, 'diff --git a/calc.py b/calc.py\n');
  thread = services.reviews.addThread(task.id, {
    diffSha256: sha256,
    startLine: 2,
    endLine: 3,
    lines: ['def add(a, b):', '    return a - b'],
    comments: [
      {
        id: 'c1',
        author: 'rita',
        authorKind: 'person',
        body: 'this subtracts\nadd instead',
        createdAt: '2026-11-02T12:00:00.000Z',
      },
    ],
  });
});

afterEach(async () => {
  await services.dispose();
});

describe('list_threads', () => {
  it('answers the ThreadListView as the caller, and renders the open threads in full', async () => {
    services.reviews.addThread(task.id, { path: 'old.py', status: 'outdated' });
    services.reviews.addThread(task.id, { path: 'z.py', status: 'resolved' });
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'list_threads', { taskId: task.id });
    expect(result.isError).toBeFalsy();
    const list = result.structuredContent as { diffSha256: string; threads: ThreadView[] };
    expect(list.diffSha256).toBe(sha256);
    expect(list.threads.map((t) => [t.path, t.status])).toEqual([
      ['calc.py', 'open'],
      ['z.py', 'resolved'],
      ['old.py', 'outdated'],
    ]);
    expect(list.threads[0]).toEqual(thread);
    expect(services.reviews.readers).toEqual([{ taskId: task.id, actor: agentActor }]);
    expect(textOf(result)).toBe(
      [
        `diff under review: ${sha256}`,
        '1 open thread',
        '',
        `calc.py:2-3 (new) [thread ${thread.id}]`,
        '    2 | def add(a, b):',
        '    3 |     return a - b',
        '  rita:',
        '    this subtracts',
        '    add instead',
        '',
        'resolved: 1, outdated: 1',
      ].join('\n'),
    );
  });

  it("marks an agent's comment as the agent's", async () => {
    await services.reviews.reply(task.id, thread.id, 'now adds', agentActor);
    const client = await connectInMemory(services, agentActor, 'http');
    const text = textOf(await call(client, 'list_threads', { taskId: task.id }));
    expect(text).toContain('  alice (token:tok-agent) (agent):\n    now adds');
  });

  it('says so when no thread is open', async () => {
    const other = services.tasks.addTask();
    const client = await connectInMemory(services, cliActor, 'stdio');
    const result = await call(client, 'list_threads', { taskId: other.id });
    expect(result.structuredContent).toEqual({ diffSha256: null, threads: [] });
    expect(textOf(result)).toBe(
      'diff under review: none\n0 open threads\n\nresolved: 0, outdated: 0',
    );
  });

  it('is NOT_FOUND for an unknown task and for one that is not an id', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    for (const taskId of ['c0123456789abcdef01234567', '../etc']) {
      expect(errorOf(await call(client, 'list_threads', { taskId })).code).toBe('NOT_FOUND');
    }
  });

  it('declares its output: threads with their place, lines and comments', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const { tools } = await client.listTools();
    const schema = tools.find((tool) => tool.name === 'list_threads')?.outputSchema as JsonSchema;
    expect(Object.keys(schema.properties ?? {})).toEqual(['diffSha256', 'threads']);
    expect(Object.keys(schema.properties?.threads?.items?.properties ?? {})).toEqual(
      expect.arrayContaining(['id', 'status', 'path', 'side', 'startLine', 'lines', 'comments']),
    );
  });
});

describe('reply_to_thread', () => {
  it('replies as the caller and answers the ThreadView', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'reply_to_thread', {
      taskId: task.id,
      threadId: thread.id,
      body: 'fix-2 adds; see its run',
    });
    expect(result.isError).toBeFalsy();
    const view = result.structuredContent as unknown as ThreadView;
    expect(view).toMatchObject({ id: thread.id, status: 'open' });
    expect(view.comments.map((c) => [c.author, c.authorKind, c.body])).toEqual([
      ['rita', 'person', 'this subtracts\nadd instead'],
      ['alice (token:tok-agent)', 'agent', 'fix-2 adds; see its run'],
    ]);
    expect(services.reviews.replies).toEqual([
      { taskId: task.id, threadId: thread.id, body: 'fix-2 adds; see its run', actor: agentActor },
    ]);
    expect(textOf(result)).toMatch(
      new RegExp(`^open thread\\ncalc\\.py:2-3 \\(new\\) \\[thread ${thread.id}\\]\\n`),
    );
  });

  it('refuses an empty body, naming it, and asks nothing of the service', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'reply_to_thread', {
      taskId: task.id,
      threadId: thread.id,
      body: '   ',
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('body');
    expect(services.reviews.replies).toEqual([]);
  });

  it('is NOT_FOUND for a thread id that is not an id, and for a thread of another task', async () => {
    const other = services.tasks.addTask();
    const client = await connectInMemory(services, agentActor, 'http');
    const malformed = await call(client, 'reply_to_thread', {
      taskId: task.id,
      threadId: 'DROP TABLE',
      body: 'x',
    });
    expect(errorOf(malformed)).toEqual({ code: 'NOT_FOUND', message: 'no thread "DROP TABLE"' });
    const elsewhere = await call(client, 'reply_to_thread', {
      taskId: other.id,
      threadId: thread.id,
      body: 'x',
    });
    expect(errorOf(elsewhere)).toEqual({
      code: 'NOT_FOUND',
      message: `no thread ${thread.id} in task ${other.id}`,
    });
  });

  it('refuses a token without the agent scope', async () => {
    const client = await connectInMemory(services, reviewerOnlyActor, 'http');
    const result = await call(client, 'reply_to_thread', {
      taskId: task.id,
      threadId: thread.id,
      body: 'x',
    });
    expect(errorOf(result).code).toBe('FORBIDDEN');
    expect(services.reviews.replies).toEqual([]);
  });
});

describe('no tool reviews', () => {
  it('offers nothing that resolves, approves or requests changes', async () => {
    const client = await connectInMemory(services, cliActor, 'stdio');
    for (const name of ['resolve_thread', 'reopen_thread', 'submit_review', 'approve']) {
      const result = await call(client, name, { taskId: task.id, threadId: thread.id });
      expect(result.isError).toBe(true);
    }
    expect(services.reviews.statusChanges).toEqual([]);
    expect(services.reviews.submitted).toEqual([]);
  });
});

describe("get_task's review", () => {
  it('declares `review` with its open threads in the output schema', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const { tools } = await client.listTools();
    const schema = tools.find((tool) => tool.name === 'get_task')?.outputSchema as JsonSchema;
    const review = schema.properties?.review?.properties ?? {};
    expect(Object.keys(review)).toEqual(
      expect.arrayContaining(['state', 'round', 'changesRequestedBy', 'openThreads']),
    );
    expect(Object.keys(review.openThreads?.items?.properties ?? {})).toEqual(
      expect.arrayContaining(['id', 'path', 'lines', 'comments']),
    );
  });

  it('carries the review and renders it briefly before the JSON when threads are open', async () => {
    const review: TaskView['review'] = {
      round: 1,
      maxRounds: 5,
      state: 'changes_requested',
      summary: 'please add, not subtract',
      changesRequestedBy: ['rita'],
      openThreads: [thread],
      outdatedThreads: 1,
      resolvedThreads: 2,
    };
    const reviewed = services.tasks.addTask({ status: 'awaiting_review', review });
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'get_task', { taskId: reviewed.id });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ review });
    const [brief, json] = textOf(result).split('\n\n', 2);
    expect(brief).toBe(
      [
        'review: changes_requested (round 1 of 5)',
        'changes requested by: rita',
        'summary: please add, not subtract',
        'threads: 1 open, 2 resolved, 1 outdated',
        `- calc.py:2-3 (new) [thread ${thread.id}] rita: this subtracts`,
        '(list_threads shows them in full; reply_to_thread answers one)',
      ].join('\n'),
    );
    expect(json?.startsWith('{')).toBe(true);
  });

  it('renders only the JSON while there is no review', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'get_task', { taskId: task.id });
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });
});
