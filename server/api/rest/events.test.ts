import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredEvent } from '../../db/event-store';
import type { TaskView } from '../../tasks/task-api';
import { handleTaskEvents } from './events';
import { formatSseEvent } from './sse';
import { expectError } from './test-support/assertions';
import { createFakeRuntime, type FakeRuntime } from './test-support/fake-runtime';
import { auth, base, parseSse, readSse } from './test-support/requests';

let fake: FakeRuntime;
let task: TaskView;

beforeEach(async () => {
  fake = await createFakeRuntime();
  task = fake.tasks.addTask();
});
afterEach(async () => {
  await fake.dispose();
});

function open(
  options: { query?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  const request = new Request(`${base}/tasks/${task.id}/events${options.query ?? ''}`, {
    headers: options.headers ?? auth(),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return handleTaskEvents(request, fake.deps, { id: task.id });
}

/** The messages that carry an event (not comments), as [id, event type]. */
function idsAndTypes(text: string): [string | undefined, string | undefined][] {
  return parseSse(text)
    .filter((message) => message.data !== undefined)
    .map((message) => [message.id, message.event]);
}

function countEvents(count: number): (text: string) => boolean {
  return (text) => idsAndTypes(text).length >= count;
}

async function waitFor(check: () => boolean): Promise<void> {
  await vi.waitFor(() => {
    expect(check()).toBe(true);
  });
}

describe('GET /api/v1/tasks/{id}/events', () => {
  it('streams the stored events with SSE framing and headers', async () => {
    fake.tasks.emit(task.id, 'task.created', { testCommand: ['pytest'] });
    fake.tasks.emit(task.id, 'task.preparing');
    const controller = new AbortController();
    const response = await open({ signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');

    const text = await readSse(response, countEvents(2));
    controller.abort();
    const messages = parseSse(text).filter((message) => message.data !== undefined);
    expect(messages.map((message) => [message.id, message.event])).toEqual([
      ['1', 'task.created'],
      ['2', 'task.preparing'],
    ]);
    expect(JSON.parse(messages[0]!.data!)).toEqual({
      seq: 1,
      type: 'task.created',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
      payload: { testCommand: ['pytest'] },
    });
    // The exact wire form of one event.
    const createdAt = JSON.parse(messages[1]!.data!) as { createdAt: string };
    expect(text).toContain(
      `id: 2\nevent: task.preparing\ndata: {"seq":2,"type":"task.preparing","createdAt":"${createdAt.createdAt}","payload":{}}\n\n`,
    );
  });

  it('delivers live events as they are emitted', async () => {
    const controller = new AbortController();
    const response = await open({ signal: controller.signal });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    fake.tasks.emit(task.id, 'baseline.started', { command: ['pytest'] });
    while (!text.includes('event: baseline.started')) {
      const { value } = await reader.read();
      text += decoder.decode(value);
    }
    fake.tasks.emit(task.id, 'baseline.finished');
    while (!text.includes('event: baseline.finished')) {
      const { value } = await reader.read();
      text += decoder.decode(value);
    }
    reader.releaseLock();
    controller.abort();
    expect(idsAndTypes(text)).toEqual([
      ['1', 'baseline.started'],
      ['2', 'baseline.finished'],
    ]);
  });

  it('resumes after Last-Event-ID', async () => {
    for (const type of ['a', 'b', 'c', 'd']) fake.tasks.emit(task.id, type);
    const controller = new AbortController();
    const response = await open({
      headers: { ...auth(), 'Last-Event-ID': '2' },
      signal: controller.signal,
    });
    const text = await readSse(response, countEvents(2));
    controller.abort();
    expect(idsAndTypes(text)).toEqual([
      ['3', 'c'],
      ['4', 'd'],
    ]);
  });

  it('resumes after ?after=N, and Last-Event-ID wins over it', async () => {
    for (const type of ['a', 'b', 'c']) fake.tasks.emit(task.id, type);
    const first = new AbortController();
    const byQuery = await open({ query: '?after=1', signal: first.signal });
    expect(idsAndTypes(await readSse(byQuery, countEvents(2)))).toEqual([
      ['2', 'b'],
      ['3', 'c'],
    ]);
    first.abort();
    const second = new AbortController();
    const both = await open({
      query: '?after=0',
      headers: { ...auth(), 'Last-Event-ID': '2' },
      signal: second.signal,
    });
    expect(idsAndTypes(await readSse(both, countEvents(1)))).toEqual([['3', 'c']]);
    second.abort();
  });

  it.each(['-1', 'abc', '1.5', '', '99999999999999999999'])(
    'refuses the Last-Event-ID %j: 400',
    async (lastEventId) => {
      const response = await open({ headers: { ...auth(), 'Last-Event-ID': lastEventId } });
      await expectError(response, 400, 'INVALID_ARGUMENT', /^Last-Event-ID must be a whole number/);
      expect(fake.tasks.openEventStreams).toBe(0);
    },
  );

  it('refuses a bad ?after=: 400', async () => {
    await expectError(await open({ query: '?after=x' }), 400, 'INVALID_ARGUMENT', /^after /);
  });

  it('is 404 (not a 200 stream) for an unknown task', async () => {
    const id = 'c333333333333333333333333';
    const request = new Request(`${base}/tasks/${id}/events`, { headers: auth() });
    const response = await handleTaskEvents(request, fake.deps, { id });
    await expectError(response, 404, 'NOT_FOUND');
    expect(fake.tasks.openEventStreams).toBe(0);
  });

  it('needs a token', async () => {
    await expectError(await open({ headers: {} }), 401, 'UNAUTHENTICATED');
  });

  it('sends a keep-alive comment every heartbeat interval', async () => {
    await fake.dispose();
    fake = await createFakeRuntime({ sseHeartbeatMs: 20 });
    task = fake.tasks.addTask();
    const controller = new AbortController();
    const response = await open({ signal: controller.signal });
    const text = await readSse(response, (sofar) => sofar.split(': keep-alive\n\n').length >= 3);
    controller.abort();
    expect(idsAndTypes(text)).toEqual([]);
    expect(text.startsWith(': connected\n\n: keep-alive\n\n: keep-alive\n\n')).toBe(true);
  });

  it('uses 15 s between keep-alives by default', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const controller = new AbortController();
      const request = new Request(`${base}/tasks/${task.id}/events`, {
        headers: auth(),
        signal: controller.signal,
      });
      const response = await handleTaskEvents(request, { runtime: fake.runtime }, { id: task.id });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      expect(decoder.decode((await reader.read()).value)).toBe(': connected\n\n');
      let arrived = false;
      const next = reader.read().then((result) => {
        arrived = true;
        return result;
      });
      vi.advanceTimersByTime(14_999);
      await new Promise((resolve) => setImmediate(resolve));
      expect(arrived).toBe(false);
      vi.advanceTimersByTime(1);
      expect(decoder.decode((await next).value)).toBe(': keep-alive\n\n');
      const after = reader.read();
      vi.advanceTimersByTime(15_000);
      expect(decoder.decode((await after).value)).toBe(': keep-alive\n\n');
      reader.releaseLock();
      controller.abort();
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends the stream and closes the event source when the client disconnects', async () => {
    fake.tasks.emit(task.id, 'a');
    const controller = new AbortController();
    const response = await open({ signal: controller.signal });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('event: a')) text += decoder.decode((await reader.read()).value);
    expect(fake.tasks.openEventStreams).toBe(1);
    controller.abort();
    // The body ends (no hang) and the service's iterator is released.
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
    await waitFor(() => fake.tasks.openEventStreams === 0);
    // Events emitted afterwards go nowhere and break nothing.
    fake.tasks.emit(task.id, 'b');
  });

  it('closes the event source when the reader cancels the body', async () => {
    const response = await open();
    const reader = response.body!.getReader();
    await reader.read();
    await waitFor(() => fake.tasks.openEventStreams === 1);
    await reader.cancel();
    await waitFor(() => fake.tasks.openEventStreams === 0);
  });

  it('reports a failure of the source as a stream.error event without an id, then ends', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    async function* failing(): AsyncGenerator<StoredEvent> {
      yield { seq: 1, type: 'a', payload: null, createdAt: new Date(0) };
      await Promise.resolve();
      throw new Error('database went away at /secret/path');
    }
    fake.tasks.events = () => failing();
    const response = await open();
    const text = await response.text();
    expect(text).toBe(
      ': connected\n\n' +
        formatSseEvent({ seq: 1, type: 'a', payload: null, createdAt: new Date(0) }) +
        'event: stream.error\ndata: {"error":{"code":"INTERNAL","message":"internal error"}}\n\n',
    );
    expect(text).not.toContain('secret');
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  it('keeps event types on one line', () => {
    const text = formatSseEvent({
      seq: 7,
      type: 'evil\ndata: injected',
      payload: { text: 'line one\nline two\r\n' },
      createdAt: new Date(0),
    });
    expect(text.split('\n')).toEqual([
      'id: 7',
      'event: evil data: injected',
      String.raw`data: {"seq":7,"type":"evil\ndata: injected","createdAt":"1970-01-01T00:00:00.000Z","payload":{"text":"line one\nline two\r\n"}}`,
      '',
      '',
    ]);
  });
});
