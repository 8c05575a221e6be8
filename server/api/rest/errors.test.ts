import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../errors/app-error';
import { errorResponse } from '../http/errors';
import { formatPath } from '../http/validation';
import type { RestRuntime, TaskParams } from './handler';
import { handleGetTask, handleListTasks } from './index';
import { serveRoute, serveTaskRoute } from './route';
import { expectError } from './test-support/assertions';
import { createFakeRuntime } from './test-support/fake-runtime';
import { getRequest } from './test-support/requests';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('errorResponse', () => {
  it('maps an AppError to its status with code, message and details', async () => {
    const response = errorResponse(
      new AppError('ARCHIVE_LINK', 'the archive holds a symlink', { details: { path: 'a/b' } }),
    );
    const error = await expectError(response, 422, 'ARCHIVE_LINK', 'the archive holds a symlink');
    expect(error.details).toEqual({ path: 'a/b' });
  });

  it('leaves details out when there are none', async () => {
    const response = errorResponse(new AppError('CONFLICT', 'busy'));
    expect(await response.json()).toEqual({ error: { code: 'CONFLICT', message: 'busy' } });
    expect(response.status).toBe(409);
  });

  it('answers anything else with a bare 500 and logs it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
    const response = errorResponse(bug);
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toEqual({ error: { code: 'INTERNAL', message: 'internal error' } });
    expect(text).not.toContain('Cannot read');
    expect(text).not.toContain('at ');
    expect(log).toHaveBeenCalledWith(expect.any(String), bug);
  });

  it('logs AppErrors of the 5xx kind and leaves 4xx quiet', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    errorResponse(new AppError('NOT_FOUND', 'no task'));
    expect(log).not.toHaveBeenCalled();
    errorResponse(new AppError('GIT_CLONE_FAILED', 'clone failed'));
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('sends WWW-Authenticate only with 401', () => {
    expect(
      errorResponse(new AppError('UNAUTHENTICATED', 'x')).headers.get('www-authenticate'),
    ).toBe('Bearer');
    expect(
      errorResponse(new AppError('FORBIDDEN', 'x')).headers.get('www-authenticate'),
    ).toBeNull();
  });
});

describe('handlers', () => {
  it('turn an unexpected failure of the service into a 500 without its message', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fake = await createFakeRuntime();
    try {
      const task = fake.tasks.addTask();
      fake.tasks.getTask = () => Promise.reject(new Error('SQLITE_BUSY: /data/shadowbox.db'));
      const response = await handleGetTask(getRequest(`/tasks/${task.id}`), fake.deps, {
        id: task.id,
      });
      const error = await expectError(response, 500, 'INTERNAL', 'internal error');
      expect(JSON.stringify(error)).not.toContain('SQLITE');
      expect(log).toHaveBeenCalled();
    } finally {
      await fake.dispose();
    }
  });
});

describe('route glue', () => {
  it('passes the runtime and the awaited params to the handler', async () => {
    const fake = await createFakeRuntime();
    try {
      const task = fake.tasks.addTask();
      const seen: TaskParams[] = [];
      const response = await serveTaskRoute(
        getRequest(`/tasks/${task.id}`),
        { params: Promise.resolve({ id: task.id }) },
        () => Promise.resolve(fake.runtime),
        async (request, deps, params) => {
          seen.push(params);
          return handleGetTask(request, deps, params);
        },
      );
      expect(response.status).toBe(200);
      expect(seen).toEqual([{ id: task.id }]);
    } finally {
      await fake.dispose();
    }
  });

  it('answers a runtime that fails to start with a JSON error, not a throw', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failing = (): Promise<RestRuntime> => Promise.reject(new Error('migrations failed'));
    await expectError(
      await serveRoute(getRequest('/tasks'), failing, handleListTasks),
      500,
      'INTERNAL',
      'internal error',
    );
    await expectError(
      await serveTaskRoute(
        getRequest('/tasks/x'),
        { params: Promise.resolve({ id: 'x' }) },
        () => Promise.reject(new AppError('SANDBOX_UNAVAILABLE', 'no user namespaces')),
        handleGetTask,
      ),
      503,
      'SANDBOX_UNAVAILABLE',
    );
    expect(log).toHaveBeenCalledTimes(2);
  });
});

describe('formatPath', () => {
  it('writes zod paths the way a reader would', () => {
    expect(formatPath(['hypotheses', 0, 'edits', 12, 'path'])).toBe('hypotheses[0].edits[12].path');
    expect(formatPath([])).toBe('');
  });
});
