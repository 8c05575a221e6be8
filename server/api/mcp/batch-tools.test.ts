import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../errors/app-error';
import { fakeBatchIds, fakeBatchView } from '../rest/test-support/fake-batches';
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

let services: FakeServices;

beforeEach(async () => {
  services = await createFakeServices();
});

afterEach(async () => {
  await services.dispose();
});

const { batch: batchId, first, second, third } = fakeBatchIds;

/** A failed batch of three: one member dropped, a conflicting pair, a pair that breaks tests. */
function failedBatch() {
  const batch = fakeBatchView({ status: 'failed', diff: null }, [first, second, third]);
  const [a, b, c] = batch.members;
  if (a === undefined || b === undefined || c === undefined) throw new Error('three members');
  return fakeBatchView({
    ...batch,
    members: [a, b, { ...c, dropped: { by: 'rita', at: '2026-12-06T12:05:00.000Z' } }],
    conflicts: [
      {
        a: second,
        b: third,
        files: [
          { path: 'calc.py', hunks: ['<<<<<<< a\n-x\n=======\n+y\n>>>>>>> b'] },
          { path: 'util.py', hunks: [] },
        ],
      },
    ],
    culprits: [
      {
        members: [first, second],
        broken: ['tests/test_calc.py::test_add', 'tests/test_calc.py::test_sub'],
        lost: [{ taskId: first, tests: ['tests/test_calc.py::test_1'] }],
      },
      { members: [third], broken: ['tests/test_util.py::test_pad'], lost: [] },
    ],
  });
}

describe('get_batch', () => {
  it('answers the BatchView as structured content, asking the service as the caller', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'get_batch', { batchId });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(fakeBatchView());
    expect(services.batches.getBatch.mock.calls).toEqual([[batchId, agentActor]]);
  });

  it('summarises the status, members (dropped marked), conflicts and culprits in its text', async () => {
    services.batches.getBatch.mockResolvedValueOnce(failedBatch());
    const client = await connectInMemory(services, cliActor, 'stdio');
    const text = textOf(await call(client, 'get_batch', { batchId }));
    const summary = text.slice(0, text.indexOf('\n\n'));
    expect(summary.split('\n')).toEqual([
      `batch ${batchId}: failed (2 of 3 members, https://example.com/calc.git at bbbbbbbbbbbb)`,
      'members:',
      `  1. ${first} fix 1`,
      `  2. ${second} fix 2`,
      `  3. ${third} fix 3 [dropped by rita]`,
      'conflicts:',
      `  ${second} × ${third}: calc.py, util.py`,
      'culprits:',
      `  ${first} + ${second} together break tests/test_calc.py::test_add, tests/test_calc.py::test_sub and lose ${first}'s fixed tests/test_calc.py::test_1`,
      `  ${third} alone breaks tests/test_util.py::test_pad`,
    ]);
    // The whole view follows, for clients that show only text.
    expect(JSON.parse(text.slice(text.indexOf('\n\n') + 2))).toEqual(failedBatch());
  });

  it('says where the combined diff, the review and the pushes stand', async () => {
    services.batches.getBatch.mockResolvedValueOnce(
      fakeBatchView({
        status: 'approved',
        review: { verdict: 'approve', sha256: 'f'.repeat(64), by: 'rita', at: 'now' },
        pushes: [
          {
            remote: 'origin',
            branch: 'shadowbox/batch-x',
            commit: 'c'.repeat(40),
            by: 'rita',
            at: 'now',
          },
        ],
      }),
    );
    const client = await connectInMemory(services, agentActor, 'http');
    const text = textOf(await call(client, 'get_batch', { batchId }));
    expect(text).toMatch(/^combined diff: sha256 [0-9a-f]{64} \(\d+ bytes\)$/m);
    expect(text).toContain('\nreview: approve by rita\n');
    expect(text).toContain(`\npushed: origin shadowbox/batch-x ${'c'.repeat(12)} by rita\n`);
  });

  it('refuses an id that is not a cuid with INVALID_ARGUMENT naming it, without asking the service', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const error = errorOf(await call(client, 'get_batch', { batchId: 'Batch 1' }));
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(error.message).toContain('"Batch 1" is not a batch id');
    expect(services.batches.getBatch).not.toHaveBeenCalled();
  });

  it("answers the service's refusal as an error result", async () => {
    services.batches.getBatch.mockRejectedValueOnce(
      new AppError('NOT_FOUND', `no batch ${batchId}`),
    );
    const client = await connectInMemory(services, agentActor, 'http');
    const error = errorOf(await call(client, 'get_batch', { batchId }));
    expect(error).toMatchObject({ code: 'NOT_FOUND', message: `no batch ${batchId}` });
  });

  it('refuses a token without the agent scope', async () => {
    const client = await connectInMemory(services, reviewerOnlyActor, 'http');
    expect(errorOf(await call(client, 'get_batch', { batchId }))).toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(services.batches.getBatch).not.toHaveBeenCalled();
  });

  it('is declared read-only, taking {batchId} and declaring the view', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'get_batch');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(['batchId']);
    expect(Object.keys(tool?.outputSchema?.properties ?? {})).toEqual(
      expect.arrayContaining([
        'status',
        'members',
        'conflicts',
        'trials',
        'culprits',
        'diff',
        'can',
      ]),
    );
  });
});
