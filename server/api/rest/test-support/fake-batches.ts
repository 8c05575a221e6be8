import { createHash } from 'node:crypto';
import { vi, type Mock } from 'vitest';
import { actorLabel } from '../../../auth/actor';
import type {
  BatchMemberView,
  BatchPushView,
  BatchServiceApi,
  BatchView,
} from '../../../batches/batch-api';

/**
 * `BatchServiceApi` as `vi.fn`s, for the transports' unit tests (REST, MCP): each answers a canned
 * view of the batch it is asked about, and a test reads what the transport handed it from
 * `mock.calls` (or makes a call fail with `mockRejectedValueOnce`). The service's own rules (rights
 * on every member, conflicts, bisection) are its tests' business, not these.
 */
export type FakeBatchService = { readonly [K in keyof BatchServiceApi]: Mock<BatchServiceApi[K]> };

/** Cuid-shaped ids, as the service makes them. */
export const fakeBatchIds = {
  batch: 'cbatch0000000000000000001',
  first: 'ctask00000000000000000001',
  second: 'ctask00000000000000000002',
  third: 'ctask00000000000000000003',
} as const;

export const fakeBatchDiff = 'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n';
export const fakeBatchDiffSha256 = createHash('sha256').update(fakeBatchDiff).digest('hex');

const at = '2026-12-06T12:00:00.000Z';

export function fakeBatchMember(taskId: string, position: number): BatchMemberView {
  return {
    taskId,
    title: `fix ${position + 1}`,
    position,
    headCommit: String(position + 1).repeat(40),
    diffSha256: String(position + 1).repeat(64),
    fixed: [`tests/test_calc.py::test_${position + 1}`],
    dropped: null,
  };
}

/** A batch of `tasks` waiting for review; `overrides` adjust it. */
export function fakeBatchView(
  overrides: Partial<BatchView> = {},
  tasks: readonly string[] = [fakeBatchIds.first, fakeBatchIds.second],
): BatchView {
  return {
    id: fakeBatchIds.batch,
    status: 'passed',
    sourceKind: 'git',
    sourceUrl: 'https://example.com/calc.git',
    baseCommit: 'b'.repeat(40),
    hostTaskId: tasks[0] ?? fakeBatchIds.first,
    createdBy: 'alice',
    createdAt: at,
    updatedAt: at,
    members: tasks.map(fakeBatchMember),
    conflicts: [],
    trials: [],
    culprits: [],
    error: null,
    diff: { sha256: fakeBatchDiffSha256, bytes: Buffer.byteLength(fakeBatchDiff) },
    review: null,
    pushes: [],
    can: { drop: true, review: false, push: false },
    ...overrides,
  };
}

export function createFakeBatches(): FakeBatchService {
  return {
    createBatch: vi.fn<BatchServiceApi['createBatch']>((input) =>
      Promise.resolve(fakeBatchView({ status: 'queued', diff: null }, input.tasks)),
    ),
    getBatch: vi.fn<BatchServiceApi['getBatch']>((id) => Promise.resolve(fakeBatchView({ id }))),
    listBatches: vi.fn<BatchServiceApi['listBatches']>(() => Promise.resolve([fakeBatchView()])),
    dropMember: vi.fn<BatchServiceApi['dropMember']>((id, taskId, actor) => {
      const batch = fakeBatchView({ id, status: 'queued', diff: null });
      const by = actorLabel(actor);
      const members = batch.members.map((m) =>
        m.taskId === taskId ? { ...m, dropped: { by, at } } : m,
      );
      return Promise.resolve({ ...batch, members });
    }),
    batchDiff: vi.fn<BatchServiceApi['batchDiff']>((id) =>
      Promise.resolve({
        bytes: Buffer.from(fakeBatchDiff),
        sha256: fakeBatchDiffSha256,
        fileName: `shadowbox-batch-${id}-${fakeBatchDiffSha256.slice(0, 12)}.patch`,
      }),
    ),
    reviewBatch: vi.fn<BatchServiceApi['reviewBatch']>((id, input) =>
      Promise.resolve(
        fakeBatchView({
          id,
          status: input.verdict === 'approve' ? 'approved' : 'rejected',
          review: { ...input, by: 'rita', at },
        }),
      ),
    ),
    pushBatch: vi.fn<BatchServiceApi['pushBatch']>((id, input) => {
      const push: BatchPushView = {
        remote: input.remote,
        branch: input.branch ?? `shadowbox/batch-${id}`,
        commit: 'c'.repeat(40),
        by: 'rita',
        at,
      };
      return Promise.resolve(push);
    }),
  };
}
