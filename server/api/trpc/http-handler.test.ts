import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../errors/app-error';
import type { CreateTaskInput, Actor } from '../../tasks/task-api';
import { fakeUser } from '../../test-support/actors';
import { fakeAccounts } from '../http/test-support/fake-auth';
import { FakeTaskService } from '../http/test-support/fake-tasks';
import { handleTrpcRequest } from './handler';

/** A service whose create refuses URLs as the real policy does, and whose list is broken. */
class PolicyTasks extends FakeTaskService {
  override createTask(input: CreateTaskInput, actor: Actor): Promise<{ readonly id: string }> {
    if (input.source.kind === 'git' && input.source.url.includes('10.0.0.1')) {
      return Promise.reject(
        new AppError('URL_PRIVATE_ADDRESS', 'https://10.0.0.1/x.git resolves to a private address'),
      );
    }
    return super.createTask(input, actor);
  }

  override listTasks(): never {
    throw new Error('database is on fire at /var/secret/path');
  }
}

let tasks: PolicyTasks;
/** Who the session cookie says asks (null: nobody signed in). */
let session: Actor | null;
const ui = { 'x-shadowbox-ui': '1' };

beforeEach(() => {
  tasks = new PolicyTasks();
  session = fakeUser('rita', 'reviewer');
});

function call(path: string, init: RequestInit = {}): Promise<Response> {
  return handleTrpcRequest(new Request(`http://127.0.0.1:3000/api/trpc/${path}`, init), () =>
    Promise.resolve({ tasks, accounts: fakeAccounts(session) }),
  );
}

function query(procedure: string, input: unknown, headers: HeadersInit = ui): Promise<Response> {
  const search = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  return call(`${procedure}${search}`, { headers });
}

function mutate(
  procedure: string,
  input: unknown,
  headers: Record<string, string> = ui,
): Promise<Response> {
  return call(procedure, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(input),
  });
}

interface ErrorBody {
  error: { message: string; code: number; data: Record<string, unknown> };
}

describe('/api/trpc errors', () => {
  it('keeps an AppError code and message, with its status', async () => {
    const response = await query('tasks.get', { taskId: 'c0123456789abcdef01234567' });
    expect(response.status).toBe(404);
    const body = (await response.json()) as ErrorBody;
    expect(body.error.message).toBe('no task c0123456789abcdef01234567');
    expect(body.error.data).toEqual({
      code: 'NOT_FOUND',
      httpStatus: 404,
      appCode: 'NOT_FOUND',
      path: 'tasks.get',
    });
  });

  it('answers 401 to a request without a session, before the service sees it', async () => {
    session = null;
    const task = tasks.addTask({ status: 'iterating' });
    const response = await mutate('tasks.cancel', { taskId: task.id });
    expect(response.status).toBe(401);
    const body = (await response.json()) as ErrorBody;
    expect(body.error.data.appCode).toBe('UNAUTHENTICATED');
    expect(tasks.cancelled).toEqual([]);
  });

  it('maps a policy rejection to 422 with the server message', async () => {
    const response = await mutate('tasks.create', {
      gitUrl: 'https://10.0.0.1/x.git',
      testCommand: ['pytest'],
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as ErrorBody;
    expect(body.error.data.appCode).toBe('URL_PRIVATE_ADDRESS');
    expect(body.error.data.code).toBe('UNPROCESSABLE_CONTENT');
    expect(body.error.message).toContain('private address');
  });

  it('names the fields of bad input', async () => {
    const response = await mutate('tasks.create', { gitUrl: '', testCommand: [] });
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(body.error.data.appCode).toBe('INVALID_ARGUMENT');
    expect(body.error.message).toContain('gitUrl: give a Git URL');
    expect(body.error.message).toContain('testCommand: testCommand needs at least the program');
  });

  it('hides the message and stack of a fault', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await query('tasks.list', undefined);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('secret');
    expect(text).not.toContain('stack');
    expect((JSON.parse(text) as ErrorBody).error.message).toBe('internal error');
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });

  it('refuses what another site can make a browser send', async () => {
    const task = tasks.addTask({ status: 'iterating' });
    const statuses: number[] = [];
    // A cross-site HTML form: urlencoded, or text/plain holding JSON; neither has the header.
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', `taskId=${task.id}`],
      ['text/plain', JSON.stringify({ taskId: task.id })],
    ]) {
      const response = await call('tasks.cancel', {
        method: 'POST',
        headers: { 'content-type': type ?? '' },
        body: body ?? '',
      });
      statuses.push(response.status);
    }
    // A script's fetch without the header, and one the browser marks as cross-site.
    statuses.push((await mutate('tasks.cancel', { taskId: task.id }, {})).status);
    const crossSite = { ...ui, 'sec-fetch-site': 'cross-site' };
    statuses.push((await mutate('tasks.cancel', { taskId: task.id }, crossSite)).status);
    expect(statuses.every((status) => status === 403 || status === 415)).toBe(true);
    expect(statuses.slice(2)).toEqual([403, 403]);
    expect(tasks.cancelled).toEqual([]);
  });
});

describe('/api/trpc event stream (SSE)', () => {
  async function readUntil(response: Response, done: (text: string) => boolean): Promise<string> {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!done(text)) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
    await reader.cancel();
    return text;
  }

  const ids = (text: string): string[] =>
    [...text.matchAll(/^id: ?(.*)$/gm)].map((match) => match[1] ?? '');

  it('sends each event with its seq as the SSE id, and resumes after Last-Event-ID', async () => {
    const task = tasks.addTask();
    tasks.emit(task.id, 'task.created', { testCommand: ['pytest'] });
    tasks.emit(task.id, 'task.preparing');
    tasks.emit(task.id, 'baseline.started', { command: ['pytest'] });

    const first = await query('tasks.events', { taskId: task.id }, {});
    expect(first.headers.get('content-type')).toContain('text/event-stream');
    const text = await readUntil(first, (seen) => ids(seen).length >= 3);
    expect(ids(text)).toEqual(['1', '2', '3']);
    expect(text).toContain('"type":"baseline.started"');

    const resumed = await query('tasks.events', { taskId: task.id }, { 'last-event-id': '2' });
    expect(ids(await readUntil(resumed, (seen) => ids(seen).length >= 1))).toEqual(['3']);
    await vi.waitFor(() => {
      expect(tasks.openEventStreams).toBe(0);
    });
  });
});
