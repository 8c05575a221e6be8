import { readFile } from 'node:fs/promises';
import { inspect } from 'node:util';
import type { TaskStatus } from '../engine/loop/task-status';
import type { Hypothesis } from '../engine/shadow/hypothesis';
import type { TaskView } from '../tasks/task-api';
import { readSse, type SseMessage } from './sse';

/**
 * A tiny client for the REST API under /api/v1, as an agent or a reviewer uses it: bearer token,
 * JSON in and out, multipart uploads, raw bytes and SSE. It never throws on an HTTP status: tests
 * assert on `status` and `body` themselves (with `describeResponse` as the failure message).
 */
export interface ApiResponse {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  readonly body: unknown;
}

export interface BytesResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
}

export interface UploadFile {
  /** A file on disk to send. */
  readonly path: string;
  /** The file name the client reports. */
  readonly name: string;
  readonly type?: string;
}

export interface RequestOptions {
  readonly json?: unknown;
  /** A raw body (sent as is, e.g. malformed JSON). */
  readonly body?: string | FormData;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

export interface SseOptions {
  /** Sent as `Last-Event-ID` when given. */
  readonly lastEventId?: number | string;
  readonly signal?: AbortSignal;
}

export interface ApiClient {
  /** The server's origin, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly token: string | undefined;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  get(path: string, options?: RequestOptions): Promise<ApiResponse>;
  post(path: string, json?: unknown, options?: RequestOptions): Promise<ApiResponse>;
  /** multipart/form-data: text fields plus files read from disk. */
  multipart(
    path: string,
    fields: Readonly<Record<string, string>>,
    files: Readonly<Record<string, UploadFile>>,
  ): Promise<ApiResponse>;
  bytes(path: string): Promise<BytesResponse>;
  /** Opens an SSE stream; fails (with the response) unless it answers 200 text/event-stream. */
  sse(path: string, options?: SseOptions): AsyncGenerator<SseMessage>;
  /** The same server with another token (or none). */
  as(token: string | undefined): ApiClient;
}

export function api(url: string, token?: string): ApiClient {
  const origin = url.replace(/\/+$/, '');
  const resolve = (path: string): string => new URL(path, `${origin}/`).href;
  const auth = (): Record<string, string> =>
    token === undefined ? {} : { authorization: `Bearer ${token}` };

  const request = async (
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse> => {
    const headers: Record<string, string> = { accept: 'application/json', ...auth() };
    let body: string | FormData | undefined = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    Object.assign(headers, options.headers);
    const target = resolve(path);
    const response = await fetch(target, {
      method,
      headers,
      body,
      signal: options.signal ?? AbortSignal.timeout(120_000),
    });
    const text = await response.text();
    return {
      method,
      url: target,
      status: response.status,
      headers: response.headers,
      text,
      body: parseJson(text),
    };
  };

  const client: ApiClient = {
    url: origin,
    token,
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, json, options) =>
      request('POST', path, json === undefined ? options : { ...options, json }),
    async multipart(path, fields, files) {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      for (const [name, file] of Object.entries(files)) {
        const data = await readFile(file.path);
        form.append(
          name,
          new Blob([data], { type: file.type ?? 'application/octet-stream' }),
          file.name,
        );
      }
      return request('POST', path, { body: form });
    },
    async bytes(path) {
      const response = await fetch(resolve(path), {
        headers: auth(),
        signal: AbortSignal.timeout(120_000),
      });
      return {
        status: response.status,
        headers: response.headers,
        body: Buffer.from(await response.arrayBuffer()),
      };
    },
    async *sse(path, options = {}) {
      const headers: Record<string, string> = { accept: 'text/event-stream', ...auth() };
      if (options.lastEventId !== undefined) headers['last-event-id'] = String(options.lastEventId);
      const response = await fetch(resolve(path), { headers, signal: options.signal ?? null });
      const type = response.headers.get('content-type') ?? '';
      if (response.status !== 200 || !type.startsWith('text/event-stream')) {
        const text = await response.text().catch(() => '');
        throw new Error(`GET ${path} → ${response.status} ${type}: ${text.slice(0, 2000)}`);
      }
      if (response.body === null) return;
      yield* readSse(response.body, options.signal);
    },
    as: (other) => api(origin, other),
  };
  return client;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A one-paragraph account of a response, for assertion messages. */
export function describeResponse(response: ApiResponse): string {
  return `${response.method} ${response.url} → ${response.status}: ${response.text.slice(0, 2000)}`;
}

/** The `error.code` of an `{"error":{"code","message"}}` body (or a bare `{"code"}`). */
export function errorCode(response: ApiResponse): string | undefined {
  const body = response.body;
  if (!isRecord(body)) return undefined;
  const error = body.error;
  if (isRecord(error) && typeof error.code === 'string') return error.code;
  return typeof body.code === 'string' ? body.code : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ── Typed conveniences over the task endpoints ────────────────────────────────────────────────

export interface TaskOptions {
  readonly testCommand: readonly string[];
  readonly maxIterations?: number;
  readonly hypothesesPerIteration?: number;
  readonly title?: string;
}

/** `POST /api/v1/tasks` as multipart with an `archive` file; returns the raw response. */
export function postArchiveTask(
  client: ApiClient,
  archive: UploadFile,
  options: TaskOptions,
): Promise<ApiResponse> {
  const fields: Record<string, string> = { testCommand: JSON.stringify(options.testCommand) };
  if (options.maxIterations !== undefined) fields.maxIterations = String(options.maxIterations);
  if (options.hypothesesPerIteration !== undefined) {
    fields.hypothesesPerIteration = String(options.hypothesesPerIteration);
  }
  if (options.title !== undefined) fields.title = options.title;
  return client.multipart('/api/v1/tasks', fields, { archive });
}

/** The same, expecting `201 {"id"}`; returns the id. */
export async function createArchiveTask(
  client: ApiClient,
  archive: UploadFile,
  options: TaskOptions,
): Promise<string> {
  const response = await postArchiveTask(client, archive, options);
  const id = isRecord(response.body) ? response.body.id : undefined;
  if (response.status !== 201 || typeof id !== 'string' || id === '') {
    throw new Error(`expected 201 {"id"}: ${describeResponse(response)}`);
  }
  return id;
}

/** `GET /api/v1/tasks/{id}`, expecting 200. */
export async function getTask(client: ApiClient, id: string): Promise<TaskView> {
  const response = await client.get(`/api/v1/tasks/${encodeURIComponent(id)}`);
  if (response.status !== 200 || !isRecord(response.body)) {
    throw new Error(`expected 200 and a task: ${describeResponse(response)}`);
  }
  return response.body as unknown as TaskView;
}

export function submitHypotheses(
  client: ApiClient,
  id: string,
  hypotheses: readonly Hypothesis[],
): Promise<ApiResponse> {
  return client.post(`/api/v1/tasks/${encodeURIComponent(id)}/hypotheses`, { hypotheses });
}

export function review(
  client: ApiClient,
  id: string,
  verdict: 'approve' | 'reject',
  sha256: string,
): Promise<ApiResponse> {
  return client.post(`/api/v1/tasks/${encodeURIComponent(id)}/review`, { verdict, sha256 });
}

/** After these nothing happens to a task without someone acting on it. */
export const settledStatuses: ReadonlySet<TaskStatus> = new Set([
  'approved',
  'rejected',
  'failed',
  'cancelled',
  'interrupted',
]);

export const hasStatus =
  (...statuses: TaskStatus[]) =>
  (task: TaskView): boolean =>
    statuses.includes(task.status);

export interface WaitOptions {
  readonly intervalMs?: number;
  /**
   * Statuses that end the wait with an error when the predicate does not hold for them (the task
   * will not change any more). Default: `settledStatuses`. Pass an empty set to wait them out.
   */
  readonly stopOn?: ReadonlySet<TaskStatus>;
}

/**
 * Polls `GET /api/v1/tasks/{id}` until `predicate` holds and returns that view. Transient failures
 * (connection refused while a server restarts, a 5xx) are retried until the deadline. Fails early
 * when the task settles in a status the predicate rejects, with the task's state in the message.
 */
export async function waitForTask(
  client: ApiClient,
  id: string,
  predicate: (task: TaskView) => boolean,
  timeoutMs: number,
  options: WaitOptions = {},
): Promise<TaskView> {
  const deadline = Date.now() + timeoutMs;
  const stopOn = options.stopOn ?? settledStatuses;
  let last: TaskView | undefined;
  let lastError: unknown;
  for (;;) {
    try {
      last = await getTask(client, id);
      lastError = undefined;
      if (predicate(last)) return last;
      if (stopOn.has(last.status)) {
        throw new Error(`task ${id} settled as ${last.status}:\n${summarizeTask(last)}`);
      }
    } catch (error) {
      if (error instanceof Error && error.message.startsWith(`task ${id} settled`)) throw error;
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const state =
        last === undefined ? 'never read' : `last seen ${last.status}:\n${summarizeTask(last)}`;
      const cause =
        lastError === undefined
          ? ''
          : `\nlast error: ${lastError instanceof Error ? lastError.message : inspect(lastError)}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for task ${id}; ${state}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 500));
  }
}

/** The parts of a task view that explain where it stands, bounded for an error message. */
export function summarizeTask(task: TaskView): string {
  const tail = (text: string | undefined): string => (text ?? '').slice(-1500);
  const summary = {
    status: task.status,
    error: task.error,
    baseline:
      task.baseline === null
        ? null
        : { ...task.baseline, outputTail: tail(task.baseline.outputTail) },
    iterations: task.iterations.map((iteration) => ({
      ...iteration,
      hypotheses: iteration.hypotheses.map((h) => ({ ...h, outputTail: tail(h.outputTail) })),
    })),
    pendingHypotheses: task.pendingHypotheses,
    diffSha256: task.diffSha256,
    lastEventId: task.lastEventId,
  };
  return JSON.stringify(summary, null, 2).slice(0, 12_000);
}

export interface TaskEvent {
  /** The frame's `id:` as a number (NaN when missing or not a number). */
  readonly id: number;
  readonly event: string;
  /** The parsed `data:` JSON, `{seq,type,createdAt,payload}` by contract. */
  readonly data: unknown;
  readonly raw: SseMessage;
}

/**
 * Reads `GET /api/v1/tasks/{id}/events` (from `lastEventId`, when given) until `until` holds for
 * what has been read, the stream ends, or `timeoutMs` passes; returns what was read either way, so
 * the caller's assertion shows what arrived.
 */
export async function readTaskEvents(
  client: ApiClient,
  id: string,
  options: {
    readonly lastEventId?: number;
    readonly until: (events: readonly TaskEvent[]) => boolean;
    readonly timeoutMs: number;
  },
): Promise<TaskEvent[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort();
  }, options.timeoutMs);
  const events: TaskEvent[] = [];
  try {
    const stream = client.sse(`/api/v1/tasks/${encodeURIComponent(id)}/events`, {
      signal: controller.signal,
      ...(options.lastEventId === undefined ? {} : { lastEventId: options.lastEventId }),
    });
    for await (const message of stream) {
      events.push({
        id: message.id === undefined ? Number.NaN : Number(message.id),
        event: message.event,
        data: parseJson(message.data),
        raw: message,
      });
      if (options.until(events)) break;
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return events;
}
