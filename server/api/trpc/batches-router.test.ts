import { createHash } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  BatchDiff,
  BatchPushView,
  BatchServiceApi,
  BatchView,
  CreateBatchInput,
  PushBatchInput,
  ReviewBatchInput,
} from '../../batches/batch-api';
import { AppError, isAppError } from '../../errors/app-error';
import type { Actor } from '../../tasks/task-api';
import { fakeUser } from '../../test-support/actors';
import { FakeTaskService } from '../http/test-support/fake-tasks';
import { createContextInner } from './context';
import type { RequestOrigin } from './request-guard';
import { createCaller } from './root';

const taskA = 'taska0000000000000000000a';
const taskB = 'taskb0000000000000000000b';
const taskC = 'taskc0000000000000000000c';
const batchId = 'batch000000000000000001';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** A batch with every part filled in: the output schema must let all of it through. */
function fullBatch(): BatchView {
  return {
    id: batchId,
    status: 'approved',
    sourceKind: 'git',
    sourceUrl: 'https://git.example/team/app.git',
    baseCommit: 'b'.repeat(40),
    hostTaskId: taskA,
    createdBy: 'rita',
    createdAt: '2026-12-06T10:00:00.000Z',
    updatedAt: '2026-12-06T10:05:00.000Z',
    members: [
      {
        taskId: taskA,
        title: 'fix-foo',
        position: 0,
        headCommit: 'a'.repeat(40),
        diffSha256: 'd'.repeat(64),
        fixed: ['tests/test_a.py::test_a'],
        dropped: null,
      },
      {
        taskId: taskB,
        title: 'fix-bar',
        position: 1,
        headCommit: 'c'.repeat(40),
        diffSha256: 'e'.repeat(64),
        fixed: [],
        dropped: { by: 'rita', at: '2026-12-06T10:01:00.000Z' },
      },
    ],
    conflicts: [
      {
        a: taskA,
        b: taskB,
        files: [{ path: 'src/x.py', hunks: ['<<<<<<< a\n=======\n>>>>>>> b'] }],
      },
    ],
    trials: [
      {
        members: [taskA, taskB],
        verdict: 'breaks',
        broken: ['tests/test_x.py::test_y'],
        lost: [{ taskId: taskA, tests: ['tests/test_a.py::test_a'] }],
        passed: 3,
        failed: 2,
        note: null,
        outputTail: 'FAILED tests/test_x.py::test_y\n',
      },
    ],
    culprits: [{ members: [taskA, taskB], broken: ['tests/test_x.py::test_y'], lost: [] }],
    error: null,
    diff: { sha256: 'f'.repeat(64), bytes: 120 },
    review: { verdict: 'approve', sha256: 'f'.repeat(64), by: 'rita', at: '2026-12-06T10:06:00Z' },
    pushes: [{ remote: 'origin', branch: 'b', commit: '1'.repeat(40), by: 'rita', at: 'x' }],
    can: { drop: false, review: false, push: true },
  };
}

/** The batch service as the router sees it: one stored batch, and a record of every call. */
class FakeBatchService implements BatchServiceApi {
  batch = fullBatch();
  patch = 'diff --git a/x b/x\n+héllo\n';
  readonly calls: { readonly method: string; readonly args: unknown[]; readonly actor: Actor }[] =
    [];

  private record(method: string, actor: Actor, ...args: unknown[]): void {
    this.calls.push({ method, args, actor });
  }

  private find(id: string): BatchView {
    if (id !== this.batch.id) throw new AppError('NOT_FOUND', `no batch ${id}`);
    return this.batch;
  }

  createBatch(input: CreateBatchInput, actor: Actor): Promise<BatchView> {
    this.record('createBatch', actor, input);
    return Promise.resolve({ ...this.batch, status: 'queued' });
  }

  getBatch(id: string, actor: Actor): Promise<BatchView> {
    this.record('getBatch', actor, id);
    return Promise.resolve(this.find(id));
  }

  listBatches(actor: Actor): Promise<BatchView[]> {
    this.record('listBatches', actor);
    return Promise.resolve([this.batch]);
  }

  dropMember(id: string, taskId: string, actor: Actor): Promise<BatchView> {
    this.record('dropMember', actor, id, taskId);
    return Promise.resolve(this.find(id));
  }

  batchDiff(id: string, actor: Actor): Promise<BatchDiff> {
    this.record('batchDiff', actor, id);
    this.find(id);
    return Promise.resolve({
      bytes: Buffer.from(this.patch, 'utf8'),
      sha256: sha(this.patch),
      fileName: `shadowbox-batch-${id}.patch`,
    });
  }

  reviewBatch(id: string, input: ReviewBatchInput, actor: Actor): Promise<BatchView> {
    this.record('reviewBatch', actor, id, input);
    return Promise.resolve(this.find(id));
  }

  pushBatch(id: string, input: PushBatchInput, actor: Actor): Promise<BatchPushView> {
    this.record('pushBatch', actor, id, input);
    this.find(id);
    return Promise.resolve({
      remote: input.remote,
      branch: input.branch ?? `shadowbox/batch-${id}`,
      commit: '2'.repeat(40),
      by: 'rita',
      at: '2026-12-06T10:07:00.000Z',
    });
  }
}

let batches: FakeBatchService;
const rita = fakeUser('rita', 'reviewer');

function caller(origin: RequestOrigin = 'ui', actor: Actor | null = rita) {
  return createCaller(
    createContextInner({ runtime: { tasks: new FakeTaskService(), batches }, actor, origin }),
  );
}

/** The AppError code a call was refused with, or tRPC's own code (input errors). */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const cause = (error as TRPCError).cause;
  return isAppError(cause) ? cause.code : (error as TRPCError).code;
}

beforeEach(() => {
  batches = new FakeBatchService();
});

describe('batches router', () => {
  it('lists and reads batches whole, as the signed-in person', async () => {
    // The output schema strips what it does not name: the whole view must come through.
    expect(await caller().batches.list()).toEqual([fullBatch()]);
    expect(await caller().batches.get({ id: batchId })).toEqual(fullBatch());
    expect(batches.calls.map((c) => [c.method, c.args, c.actor])).toEqual([
      ['listBatches', [], rita],
      ['getBatch', [batchId], rita],
    ]);
  });

  it('gives the combined diff as UTF-8 text with the SHA-256 of its bytes', async () => {
    expect(await caller().batches.diff({ id: batchId })).toEqual({
      text: 'diff --git a/x b/x\n+héllo\n',
      sha256: sha('diff --git a/x b/x\n+héllo\n'),
    });
  });

  it('creates a batch of tasks in the order given', async () => {
    const view = await caller().batches.create({ tasks: [taskC, taskA] });
    expect(view.status).toBe('queued');
    expect(batches.calls).toEqual([
      { method: 'createBatch', args: [{ tasks: [taskC, taskA] }], actor: rita },
    ]);
  });

  it('refuses a batch of fewer than 2, more than 8, or repeated tasks before the service', async () => {
    expect(await refusal(caller().batches.create({ tasks: [taskA] }))).toBe('BAD_REQUEST');
    const nine = Array.from({ length: 9 }, (_, i) => `task${i}000000000000000000000`);
    expect(await refusal(caller().batches.create({ tasks: nine }))).toBe('BAD_REQUEST');
    expect(await refusal(caller().batches.create({ tasks: [taskA, taskA] }))).toBe('BAD_REQUEST');
    expect(await refusal(caller().batches.create({ tasks: [taskA, '../etc'] }))).toBe(
      'BAD_REQUEST',
    );
    expect(batches.calls).toEqual([]);
  });

  it('drops a member, reviews the combined diff and pushes it', async () => {
    await caller().batches.drop({ id: batchId, task: taskB });
    await caller().batches.review({ id: batchId, verdict: 'approve', sha256: 'f'.repeat(64) });
    const pushed = await caller().batches.push({ id: batchId, remote: 'origin' });
    expect(pushed).toMatchObject({ remote: 'origin', branch: `shadowbox/batch-${batchId}` });
    await caller().batches.push({ id: batchId, remote: 'origin', branch: 'land/foo-bar' });
    expect(batches.calls.map((c) => [c.method, c.args])).toEqual([
      ['dropMember', [batchId, taskB]],
      ['reviewBatch', [batchId, { verdict: 'approve', sha256: 'f'.repeat(64) }]],
      ['pushBatch', [batchId, { remote: 'origin', branch: undefined }]],
      ['pushBatch', [batchId, { remote: 'origin', branch: 'land/foo-bar' }]],
    ]);
  });

  it('refuses bad ids, hashes and branch names before the service', async () => {
    expect(await refusal(caller().batches.get({ id: '../etc' }))).toBe('BAD_REQUEST');
    expect(await refusal(caller().batches.drop({ id: batchId, task: 'x' }))).toBe('BAD_REQUEST');
    const review = caller().batches.review({ id: batchId, verdict: 'approve', sha256: 'F00' });
    expect(await refusal(review)).toBe('BAD_REQUEST');
    const push = caller().batches.push({ id: batchId, remote: 'origin', branch: '--force' });
    expect(await refusal(push)).toBe('BAD_REQUEST');
    expect(batches.calls).toEqual([]);
  });

  it("passes the service's refusals on with their code", async () => {
    expect(await refusal(caller().batches.get({ id: 'batch999999999999999999' }))).toBe(
      'NOT_FOUND',
    );
  });

  it('refuses callers who are not signed in, and requests not from the UI', async () => {
    expect(await refusal(caller('ui', null).batches.list())).toBe('UNAUTHENTICATED');
    expect(await refusal(caller('unmarked').batches.get({ id: batchId }))).toBe('FORBIDDEN');
    expect(await refusal(caller('cross-site').batches.create({ tasks: [taskA, taskB] }))).toBe(
      'FORBIDDEN',
    );
    expect(batches.calls).toEqual([]);
  });

  it('says so on a runtime without the batch service', async () => {
    const bare = createCaller(
      createContextInner({ runtime: { tasks: new FakeTaskService() }, actor: rita }),
    );
    expect(await refusal(bare.batches.list())).toBe('INTERNAL');
  });
});
