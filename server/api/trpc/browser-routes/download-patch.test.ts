import { describe, expect, it } from 'vitest';
import type { Actor } from '../../../tasks/task-api';
import { fakeUser } from '../../../test-support/actors';
import { fakeAccounts } from '../../http/test-support/fake-auth';
import { FakeTaskService } from '../../http/test-support/fake-tasks';
import { hostileFileNames } from '../../http/test-support/hostile-file-names';
import { handleDownloadPatch } from './download-patch';

const patch = 'From 0000 Mon Sep 17 00:00:00 2001\nSubject: fix\n\ndiff --git a/x b/x\n';

const rita = fakeUser('rita', 'reviewer');

function download(
  tasks: FakeTaskService,
  id: string,
  search = '',
  headers: HeadersInit = {},
  session: Actor | null = rita,
) {
  const request = new Request(`http://127.0.0.1:3000/coding/${id}/patch${search}`, { headers });
  return handleDownloadPatch(request, id, () =>
    Promise.resolve({ tasks, accounts: fakeAccounts(session) }),
  );
}

describe('GET /coding/{id}/patch', () => {
  it('serves the stored bytes as an attachment named after the task and the hash', async () => {
    const tasks = new FakeTaskService();
    const task = tasks.addTask();
    const sha256 = tasks.setDiff(task.id, patch);
    const response = await download(tasks, task.id, `?sha256=${sha256}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(patch);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="shadowbox-${task.id}-${sha256.slice(0, 12)}.patch"`,
    );
    expect(response.headers.get('x-content-sha256')).toBe(sha256);
    expect(tasks.readers).toEqual([{ method: 'getPatch', taskId: task.id, actor: rita }]);
  });

  it.each(hostileFileNames)(
    'names %j safely, as the REST download does (one download response)',
    async (fileName, safe) => {
      const tasks = new FakeTaskService();
      const task = tasks.addTask();
      tasks.setDiff(task.id, patch);
      const original = tasks.getPatch.bind(tasks);
      tasks.getPatch = async (id, actor) => ({ ...(await original(id, actor)), fileName });
      const response = await download(tasks, task.id);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${safe}"`);
    },
  );

  it('answers 401 without a session', async () => {
    const tasks = new FakeTaskService();
    const task = tasks.addTask();
    tasks.setDiff(task.id, patch);
    const response = await download(tasks, task.id, '', {}, null);
    expect(response.status).toBe(401);
    expect(tasks.readers).toEqual([]);
  });

  it('refuses a patch that is no longer the one the page showed', async () => {
    const tasks = new FakeTaskService();
    const task = tasks.addTask();
    const shown = tasks.setDiff(task.id, patch);
    tasks.setDiff(task.id, `${patch}+more\n`);
    const response = await download(tasks, task.id, `?sha256=${shown}`);
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('STALE_DIFF');
  });

  it('answers 404 for an unknown or malformed id and 403 cross-site', async () => {
    const tasks = new FakeTaskService();
    expect((await download(tasks, 'c0123456789abcdef01234567')).status).toBe(404);
    expect((await download(tasks, '..%2F..')).status).toBe(404);
    const task = tasks.addTask();
    tasks.setDiff(task.id, patch);
    const crossSite = await download(tasks, task.id, '', { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
  });
});
