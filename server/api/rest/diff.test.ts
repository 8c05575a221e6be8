import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliActor } from '../../auth/actor';
import type { TaskView } from '../../tasks/task-api';
import { hostileFileNames } from '../http/test-support/hostile-file-names';
import { handleGetBundle, handleGetDiff, handleGetPatch, handleGetSeries } from './diff';
import { expectError, readJson } from './test-support/assertions';
import { createFakeRuntime, type FakeRuntime } from './test-support/fake-runtime';
import { getRequest } from './test-support/requests';

let fake: FakeRuntime;
let task: TaskView;

// Non-ASCII on purpose: the byte count and the hash are of the UTF-8 bytes.
const patch = [
  'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001',
  'Subject: [PATCH] shadowbox: fix add — ünïcode',
  '',
  'diff --git a/src/lib.rs b/src/lib.rs',
  '--- a/src/lib.rs',
  '+++ b/src/lib.rs',
  '@@ -1 +1 @@',
  '-pub fn add(a: i32, b: i32) -> i32 { a - b }',
  '+pub fn add(a: i32, b: i32) -> i32 { a + b }',
  '',
].join('\n');

beforeEach(async () => {
  fake = await createFakeRuntime();
  task = fake.tasks.addTask();
});
afterEach(async () => {
  await fake.dispose();
});

describe('GET /api/v1/tasks/{id}/diff', () => {
  it('returns {"diff","sha256","flags"}', async () => {
    const sha256 = fake.tasks.setDiff(task.id, patch);
    const response = await handleGetDiff(getRequest(`/tasks/${task.id}/diff`), fake.deps, {
      id: task.id,
    });
    const body = await readJson<Record<string, unknown>>(response, 200);
    expect(Object.keys(body).sort()).toEqual(['diff', 'flags', 'sha256']);
    expect(body.diff).toBe(patch);
    expect(body.sha256).toBe(sha256);
    expect(body.flags).toMatchObject({ files: 1, bytes: Buffer.byteLength(patch) });
  });

  it('is 409 INVALID_STATE while there is no diff', async () => {
    const response = await handleGetDiff(getRequest(`/tasks/${task.id}/diff`), fake.deps, {
      id: task.id,
    });
    await expectError(response, 409, 'INVALID_STATE');
  });

  it('needs a token', async () => {
    const response = await handleGetDiff(getRequest(`/tasks/${task.id}/diff`, {}), fake.deps, {
      id: task.id,
    });
    await expectError(response, 401, 'UNAUTHENTICATED');
  });
});

describe('GET /api/v1/tasks/{id}/patch', () => {
  it('serves the stored bytes with their hash and an attachment file name', async () => {
    const sha256 = fake.tasks.setDiff(task.id, patch);
    const response = await handleGetPatch(getRequest(`/tasks/${task.id}/patch`), fake.deps, {
      id: task.id,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/x-patch; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="shadowbox-${task.id}-${sha256.slice(0, 12)}.patch"`,
    );
    expect(response.headers.get('x-content-sha256')).toBe(sha256);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(Buffer.from(patch, 'utf8'))).toBe(true);
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256);
  });

  it.each(hostileFileNames)('names %j safely in the header', async (fileName, safe) => {
    fake.tasks.setDiff(task.id, patch);
    const original = fake.tasks.getPatch.bind(fake.tasks);
    fake.tasks.getPatch = async (id, actor) => ({ ...(await original(id, actor)), fileName });
    const response = await handleGetPatch(getRequest(`/tasks/${task.id}/patch`), fake.deps, {
      id: task.id,
    });
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${safe}"`);
  });

  it('is 409 while there is no diff, and 404 for an unknown task', async () => {
    const response = await handleGetPatch(getRequest(`/tasks/${task.id}/patch`), fake.deps, {
      id: task.id,
    });
    await expectError(response, 409, 'INVALID_STATE');
    const id = 'c111111111111111111111111';
    const missing = await handleGetPatch(getRequest(`/tasks/${id}/patch`), fake.deps, { id });
    await expectError(missing, 404, 'NOT_FOUND');
  });
});

describe('GET /api/v1/tasks/{id}/series and /bundle', () => {
  async function approve(): Promise<string> {
    const sha256 = fake.tasks.setDiff(task.id, patch);
    await fake.tasks.review(task.id, { verdict: 'approve', sha256 }, cliActor);
    return sha256;
  }

  it('sends the series as an mbox attachment named for the task and the approved hash', async () => {
    const sha256 = await approve();
    const response = await handleGetSeries(
      getRequest(`/tasks/${task.id}/series?squash=1`),
      fake.deps,
      { id: task.id },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/mbox');
    expect(response.headers.get('x-content-sha256')).toBe(sha256);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="shadowbox-${task.id}-${sha256.slice(0, 12)}-squashed.mbox"`,
    );
  });

  it('sends the bundle as application/x-git-bundle', async () => {
    await approve();
    const response = await handleGetBundle(getRequest(`/tasks/${task.id}/bundle`), fake.deps, {
      id: task.id,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-git-bundle');
  });

  it('refuses a squash that is not a yes or a no, naming it', async () => {
    await approve();
    const response = await handleGetSeries(
      getRequest(`/tasks/${task.id}/series?squash=maybe`),
      fake.deps,
      { id: task.id },
    );
    await expectError(
      response,
      400,
      'INVALID_ARGUMENT',
      'squash must be 1, true, 0 or false, got "maybe"',
    );
  });

  it('is 409 INVALID_STATE before an approval', async () => {
    fake.tasks.setDiff(task.id, patch);
    const response = await handleGetSeries(getRequest(`/tasks/${task.id}/series`), fake.deps, {
      id: task.id,
    });
    await expectError(response, 409, 'INVALID_STATE');
  });
});
