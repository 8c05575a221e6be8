import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareMatrixSchema, type CompareMatrix } from '../tasks/compare';
import { fakeUser } from '../test-support/actors';
import { agentActor, call, connectInMemory, errorOf, textOf } from './mcp/test-support/clients';
import { createFakeServices, type FakeServices } from './mcp/test-support/fake-services';
import { handleCompare } from './rest';
import { createFakeRuntime, type FakeRuntime } from './rest/test-support/fake-runtime';
import { getRequest } from './rest/test-support/requests';
import { createContextInner } from './trpc/context';
import { createCaller } from './trpc/root';

/** The compare matrix is one schema on every transport: REST, tRPC and MCP give the same JSON. */

const matrixOf = (taskId: string): CompareMatrix => ({
  taskId,
  iteration: null,
  iterations: 1,
  columns: [
    {
      name: 'baseline',
      kind: 'baseline',
      iteration: null,
      runId: 'r'.repeat(25),
      verdict: null,
      rank: null,
      winner: false,
      fixed: null,
      broken: null,
      changedLines: null,
      durationMs: 1200,
      origin: null,
      author: null,
      readAs: 'by test id',
      basis: null,
      totals: { passed: 1, failed: 1, skipped: 0 },
      evidence: 'by test',
      note: null,
    },
    {
      name: 'fix-a',
      kind: 'hypothesis',
      iteration: 1,
      runId: 's'.repeat(25),
      verdict: 'winner',
      rank: 1,
      winner: true,
      fixed: 1,
      broken: 0,
      changedLines: 4,
      durationMs: 1300,
      origin: 'external',
      author: 'alice',
      readAs: 'by test id',
      basis: 'id',
      totals: { passed: 2, failed: 0, skipped: 0 },
      evidence: 'by test',
      note: null,
    },
  ],
  rows: [{ test: 't::a', cells: ['fail', 'pass'], broken: false, fixed: true }],
});

let services: FakeServices;
let rest: FakeRuntime;

beforeEach(async () => {
  services = await createFakeServices();
  rest = await createFakeRuntime();
});
afterEach(async () => {
  await services.dispose();
  await rest.dispose();
});

describe('the compare matrix on every transport', () => {
  it('is the same JSON over REST, tRPC and MCP, and parses with the one schema', async () => {
    const viaRest = rest.tasks.addTask();
    rest.tasks.matrices.set(viaRest.id, matrixOf(viaRest.id));
    const response = await handleCompare(getRequest(`/tasks/${viaRest.id}/compare`), rest.deps, {
      id: viaRest.id,
    });
    const restBody: unknown = await response.json();

    const task = services.tasks.addTask({ id: viaRest.id });
    services.tasks.matrices.set(task.id, matrixOf(task.id));
    const trpc = createCaller(
      createContextInner({
        runtime: { tasks: services.tasks },
        actor: fakeUser('rita'),
        origin: 'ui',
      }),
    );
    const viaTrpc = await trpc.tasks.compare({ taskId: task.id });

    const client = await connectInMemory(services, agentActor, 'http');
    const viaMcp = await call(client, 'compare_hypotheses', { taskId: task.id });
    await client.close();

    expect(compareMatrixSchema.parse(restBody)).toEqual(matrixOf(task.id));
    expect(viaTrpc).toEqual(restBody);
    expect(viaMcp.structuredContent).toEqual(restBody);
    expect(textOf(viaMcp)).toContain('t::a: fail | pass');
    expect(textOf(viaMcp)).toContain('[1] fix-a (iteration 1, the winner, fixed 1, broken 0');
  });

  it('names an iteration the task does not have, over MCP and tRPC', async () => {
    const task = services.tasks.addTask();
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'compare_hypotheses', { taskId: task.id, iteration: 2 });
    await client.close();
    expect(errorOf(result)).toEqual({
      code: 'NOT_FOUND',
      message: `task ${task.id} has no iteration 2`,
    });
    const trpc = createCaller(
      createContextInner({
        runtime: { tasks: services.tasks },
        actor: fakeUser('rita'),
        origin: 'ui',
      }),
    );
    await expect(trpc.tasks.compare({ taskId: task.id, iteration: 0 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});
