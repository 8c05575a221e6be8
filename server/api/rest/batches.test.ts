import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BatchPushView, BatchView } from '../../batches/batch-api';
import { AppError } from '../../errors/app-error';
import { tokenActors, tokens } from '../http/test-support/fake-auth';
import {
  handleCreateBatch,
  handleDropBatchMember,
  handleGetBatch,
  handleGetBatchDiff,
  handleListBatches,
  handlePushBatch,
  handleReviewBatch,
} from './batches';
import type { BatchParams, RestHandler } from './handler';
import { expectError, readJson } from './test-support/assertions';
import {
  fakeBatchDiff,
  fakeBatchDiffSha256,
  fakeBatchIds,
  fakeBatchView,
} from './test-support/fake-batches';
import { createFakeRuntime, type FakeRuntime } from './test-support/fake-runtime';
import { auth, getRequest, jsonRequest } from './test-support/requests';

let fake: FakeRuntime;

beforeEach(async () => {
  fake = await createFakeRuntime();
});
afterEach(async () => {
  await fake.dispose();
});

const { batch: id, first, second, third } = fakeBatchIds;
const params = { id };
const reviewer = auth(tokens.reviewer);
const sha256 = fakeBatchDiffSha256;

/** `n` distinct cuid-shaped task ids. */
const taskIds = (n: number) =>
  Array.from({ length: n }, (_, i) => `ctask${String(i + 1).padStart(20, '0')}`);

const create = (body: unknown, headers?: Record<string, string>) =>
  handleCreateBatch(jsonRequest('POST', '/batches', body, headers), fake.deps, undefined);

const post = (
  handler: RestHandler<BatchParams>,
  path: string,
  body: unknown,
  headers?: Record<string, string>,
) => handler(jsonRequest('POST', `/batches/${id}/${path}`, body, headers), fake.deps, params);

describe('POST /api/v1/batches', () => {
  it('answers 201 with the BatchView and its Location, handing the service the caller and the ids in order', async () => {
    const response = await create({ tasks: [second, first, third] });
    const batch = await readJson<BatchView>(response, 201);
    expect(batch).toMatchObject({ id, status: 'queued' });
    expect(batch.members.map((m) => m.taskId)).toEqual([second, first, third]);
    expect(response.headers.get('location')).toBe(`/api/v1/batches/${id}`);
    expect(fake.batches.createBatch.mock.calls).toEqual([
      [{ tasks: [second, first, third] }, tokenActors.agent],
    ]);
  });

  it('takes 2 and 8 tasks', async () => {
    expect((await create({ tasks: taskIds(2) })).status).toBe(201);
    expect((await create({ tasks: taskIds(8) })).status).toBe(201);
  });

  it.each([
    ['no tasks', {}, /tasks/],
    ['tasks that is not an array', { tasks: first }, /tasks must be an array of task ids/],
    ['one task', { tasks: [first] }, /at least 2 tasks/],
    ['nine tasks', { tasks: taskIds(9) }, /at most 8 tasks/],
    [
      'a bad task id',
      { tasks: [first, 'ctask/../x'] },
      /tasks\[1\]: "ctask\/\.\.\/x" is not a task id/,
    ],
    [
      'a task twice',
      { tasks: [first, second, first] },
      /tasks\[2\]: task "ctask0+1" is listed twice/,
    ],
    ['an unknown field', { tasks: [first, second], base: 'main' }, /unknown field "base"/],
  ])('refuses %s with 400 INVALID_ARGUMENT, naming the problem', async (_, body, message) => {
    await expectError(await create(body), 400, 'INVALID_ARGUMENT', message);
    expect(fake.batches.createBatch).not.toHaveBeenCalled();
  });

  it('refuses a body that is not JSON with 415', async () => {
    const request = new Request('http://127.0.0.1:3000/api/v1/batches', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', ...auth() },
      body: '{}',
    });
    await expectError(
      await handleCreateBatch(request, fake.deps, undefined),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it("answers the service's refusal with its status", async () => {
    fake.batches.createBatch.mockRejectedValueOnce(
      new AppError('INVALID_STATE', `task ${second} is not approved`),
    );
    await expectError(await create({ tasks: [first, second] }), 409, 'INVALID_STATE', second);
  });
});

describe('GET /api/v1/batches', () => {
  it('answers {"batches":[BatchView…]} for the caller', async () => {
    const response = await handleListBatches(
      getRequest('/batches', reviewer),
      fake.deps,
      undefined,
    );
    const body = await readJson<{ batches: BatchView[] }>(response, 200);
    expect(Object.keys(body)).toEqual(['batches']);
    expect(body.batches).toEqual([fakeBatchView()]);
    expect(fake.batches.listBatches.mock.calls).toEqual([[tokenActors.reviewer]]);
  });
});

describe('GET /api/v1/batches/{id}', () => {
  it('answers the BatchView, asking the service as the caller', async () => {
    const response = await handleGetBatch(getRequest(`/batches/${id}`), fake.deps, params);
    expect(await readJson<BatchView>(response, 200)).toEqual(fakeBatchView());
    expect(fake.batches.getBatch.mock.calls).toEqual([[id, tokenActors.agent]]);
  });

  it('refuses an id that is not a cuid with 400, naming it, before asking the service', async () => {
    const response = await handleGetBatch(getRequest('/batches/Batch-1'), fake.deps, {
      id: 'Batch-1',
    });
    await expectError(response, 400, 'INVALID_ARGUMENT', '"Batch-1" is not a batch id');
    expect(fake.batches.getBatch).not.toHaveBeenCalled();
  });

  it("answers the service's NOT_FOUND with 404", async () => {
    fake.batches.getBatch.mockRejectedValueOnce(new AppError('NOT_FOUND', `no batch ${id}`));
    const response = await handleGetBatch(getRequest(`/batches/${id}`), fake.deps, params);
    await expectError(response, 404, 'NOT_FOUND', `no batch ${id}`);
  });
});

describe('POST /api/v1/batches/{id}/drop', () => {
  it('answers the BatchView with the member dropped, handing the service id, task and caller', async () => {
    const batch = await readJson<BatchView>(
      await post(handleDropBatchMember, 'drop', { task: second }),
      200,
    );
    expect(batch.members.find((m) => m.taskId === second)?.dropped).toMatchObject({
      by: expect.stringContaining('alice') as unknown,
    });
    expect(fake.batches.dropMember.mock.calls).toEqual([[id, second, tokenActors.agent]]);
  });

  it.each([
    ['no task', {}, /task: a task id is required/],
    ['a bad task id', { task: 'x' }, /task: "x" is not a task id/],
    ['a list of tasks', { task: [first] }, /task/],
    ['an unknown field', { task: first, reason: 'flaky' }, /unknown field "reason"/],
  ])('refuses %s with 400 INVALID_ARGUMENT', async (_, body, message) => {
    await expectError(
      await post(handleDropBatchMember, 'drop', body),
      400,
      'INVALID_ARGUMENT',
      message,
    );
    expect(fake.batches.dropMember).not.toHaveBeenCalled();
  });
});

describe('GET /api/v1/batches/{id}/diff', () => {
  it('answers the combined diff as a patch file, its SHA-256 in X-Content-SHA256', async () => {
    const response = await handleGetBatchDiff(getRequest(`/batches/${id}/diff`), fake.deps, params);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(fakeBatchDiff);
    expect(response.headers.get('content-type')).toBe('text/x-patch; charset=utf-8');
    expect(response.headers.get('x-content-sha256')).toBe(sha256);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="shadowbox-batch-${id}-${sha256.slice(0, 12)}.patch"`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(fake.batches.batchDiff.mock.calls).toEqual([[id, tokenActors.agent]]);
  });

  it('is 409 while there is no combined diff yet, as the service says', async () => {
    fake.batches.batchDiff.mockRejectedValueOnce(
      new AppError('INVALID_STATE', `batch ${id} is running: there is no combined diff yet`),
    );
    const response = await handleGetBatchDiff(getRequest(`/batches/${id}/diff`), fake.deps, params);
    await expectError(response, 409, 'INVALID_STATE');
  });
});

describe('POST /api/v1/batches/{id}/review', () => {
  it('answers the BatchView, handing the service the verdict, the hash and the reviewer', async () => {
    const response = await post(
      handleReviewBatch,
      'review',
      { verdict: 'approve', sha256 },
      reviewer,
    );
    const batch = await readJson<BatchView>(response, 200);
    expect(batch).toMatchObject({ status: 'approved', review: { verdict: 'approve', sha256 } });
    expect(fake.batches.reviewBatch.mock.calls).toEqual([
      [id, { verdict: 'approve', sha256 }, tokenActors.reviewer],
    ]);
  });

  it('takes a rejection', async () => {
    const response = await post(
      handleReviewBatch,
      'review',
      { verdict: 'reject', sha256 },
      reviewer,
    );
    expect(await readJson<BatchView>(response, 200)).toMatchObject({ status: 'rejected' });
  });

  it('is 403 for a token without the reviewer scope, before the body is read', async () => {
    const response = await post(handleReviewBatch, 'review', 'not json at all');
    await expectError(response, 403, 'FORBIDDEN', /reviewer/);
    expect(fake.batches.reviewBatch).not.toHaveBeenCalled();
  });

  it.each([
    ['a short sha256', { verdict: 'approve', sha256: 'abc' }, /sha256 must be 64 lowercase hex/],
    ['an uppercase sha256', { verdict: 'approve', sha256: sha256.toUpperCase() }, /sha256/],
    ['no sha256', { verdict: 'approve' }, /sha256/],
    [
      'an unknown verdict',
      { verdict: 'request_changes', sha256 },
      /verdict must be "approve" or "reject"/,
    ],
    ['an unknown field', { verdict: 'approve', sha256, comment: 'ok' }, /unknown field "comment"/],
  ])('refuses %s with 400 INVALID_ARGUMENT', async (_, body, message) => {
    const response = await post(handleReviewBatch, 'review', body, reviewer);
    await expectError(response, 400, 'INVALID_ARGUMENT', message);
    expect(fake.batches.reviewBatch).not.toHaveBeenCalled();
  });

  it("answers the service's STALE_DIFF with 409", async () => {
    fake.batches.reviewBatch.mockRejectedValueOnce(
      new AppError('STALE_DIFF', 'the combined diff changed since you loaded it'),
    );
    const response = await post(
      handleReviewBatch,
      'review',
      { verdict: 'approve', sha256 },
      reviewer,
    );
    await expectError(response, 409, 'STALE_DIFF');
  });
});

describe('POST /api/v1/batches/{id}/push', () => {
  it('answers the push, handing the service the remote, the branch and the caller', async () => {
    const body = { remote: 'origin', branch: 'land/calc' };
    const push = await readJson<BatchPushView>(
      await post(handlePushBatch, 'push', body, reviewer),
      200,
    );
    expect(push).toMatchObject({ remote: 'origin', branch: 'land/calc', commit: 'c'.repeat(40) });
    expect(fake.batches.pushBatch.mock.calls).toEqual([[id, body, tokenActors.reviewer]]);
  });

  it('leaves the branch to the service when the body has none', async () => {
    const push = await readJson<BatchPushView>(
      await post(handlePushBatch, 'push', { remote: 'origin' }, reviewer),
      200,
    );
    expect(push.branch).toBe(`shadowbox/batch-${id}`);
    expect(fake.batches.pushBatch.mock.calls).toEqual([
      [id, { remote: 'origin' }, tokenActors.reviewer],
    ]);
  });

  it.each([
    [{}, /remote/],
    [{ remote: 'origin', branch: '--upload-pack=x' }, /branch/],
    [{ remote: 'origin', branch: 'a..b' }, /branch/],
    [{ remote: 'origin', squash: true }, /unknown field "squash"/],
    [{ remote: 'origin', pullRequest: true }, /unknown field "pullRequest"/],
  ])('refuses %o with 400, naming the field', async (body, field) => {
    await expectError(
      await post(handlePushBatch, 'push', body, reviewer),
      400,
      'INVALID_ARGUMENT',
      field,
    );
    expect(fake.batches.pushBatch).not.toHaveBeenCalled();
  });

  it("answers git's refusal with 409 PUSH_REJECTED", async () => {
    fake.batches.pushBatch.mockRejectedValueOnce(
      new AppError('PUSH_REJECTED', 'the remote refused the push: non-fast-forward'),
    );
    const response = await post(handlePushBatch, 'push', { remote: 'origin' }, reviewer);
    await expectError(response, 409, 'PUSH_REJECTED', /non-fast-forward/);
  });
});

describe('authentication', () => {
  const noToken = {};
  it.each<[string, () => Promise<Response>]>([
    ['POST /batches', () => create({ tasks: [first, second] }, noToken)],
    [
      'GET /batches',
      () => handleListBatches(getRequest('/batches', noToken), fake.deps, undefined),
    ],
    [
      'GET /batches/{id}',
      () => handleGetBatch(getRequest(`/batches/${id}`, noToken), fake.deps, params),
    ],
    ['POST …/drop', () => post(handleDropBatchMember, 'drop', { task: first }, noToken)],
    [
      'GET …/diff',
      () => handleGetBatchDiff(getRequest(`/batches/${id}/diff`, noToken), fake.deps, params),
    ],
    [
      'POST …/review',
      () => post(handleReviewBatch, 'review', { verdict: 'approve', sha256 }, noToken),
    ],
    ['POST …/push', () => post(handlePushBatch, 'push', { remote: 'origin' }, noToken)],
    [
      'a bad token',
      () => handleGetBatch(getRequest(`/batches/${id}`, auth('sbx_unknown')), fake.deps, params),
    ],
  ])('%s is 401 without a valid token, and the service is not asked', async (_, send) => {
    await expectError(await send(), 401, 'UNAUTHENTICATED');
    for (const call of Object.values(fake.batches)) expect(call).not.toHaveBeenCalled();
  });
});
