import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeAuthenticate, tokens } from '../http/test-support/fake-auth';
import { createMcpHttpHandler } from './http';
import { call, errorOf } from './test-support/clients';
import { createFakeServices, type FakeServices } from './test-support/fake-services';
import { serveFetchHandler, type ServedHandler } from './test-support/serve-fetch';

let services: FakeServices;
let served: ServedHandler;

beforeEach(async () => {
  services = await createFakeServices();
  served = await serveFetchHandler(
    createMcpHttpHandler(() => Promise.resolve({ services, authenticate: fakeAuthenticate })),
  );
});

afterEach(async () => {
  await served.close();
  await services.dispose();
});

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'shadowbox-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(served.url, {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

describe('MCP over Streamable HTTP', () => {
  it('answers 401 with the REST error body without a valid token, for every method', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      for (const authorization of [undefined, 'Bearer nope']) {
        const response = await fetch(served.url, {
          method,
          headers: {
            ...(authorization === undefined ? {} : { Authorization: authorization }),
            ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
          },
          ...(method === 'POST' ? { body: '{}' } : {}),
        });
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer');
        expect(await response.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
      }
    }
    const client = new Client({ name: 'shadowbox-test', version: '1.0.0' });
    await expect(
      client.connect(new StreamableHTTPClientTransport(served.url)),
    ).rejects.toMatchObject({ code: 401 });
  });

  it('serves the tools to a token, statelessly', async () => {
    const client = await connect(tokens.agent);
    expect(client.getServerVersion()?.name).toBe('shadowbox');
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(11);
    const { id } = services.tasks.addTask();
    const result = await call(client, 'get_task', { taskId: id });
    expect(result.structuredContent).toMatchObject({ id });
    expect(
      errorOf(
        await call(client, 'shadow_run', {
          hypotheses: [{ name: 'baseline' }],
          command: ['pytest'],
          workspace: '/',
        }),
      ).code,
    ).toBe('FORBIDDEN');
    await client.close();
  });

  it('answers 405 to GET and DELETE (no session, no standalone stream)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(served.url, {
        method,
        headers: { Authorization: `Bearer ${tokens.agent}`, Accept: 'text/event-stream' },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it("aborts a running call's shadows when the client goes away", async () => {
    services.runner.hang = true;
    const task = services.tasks.addTask({ status: 'awaiting_hypotheses' });
    await import('node:fs/promises').then((fs) =>
      fs.mkdir(services.shadows.worktreeOf(task.id), { recursive: true }),
    );
    const client = await connect(tokens.agent);
    const running = call(client, 'shadow_run', {
      hypotheses: [{ name: 'baseline' }],
      command: ['pytest'],
      taskId: task.id,
    }).catch((error: unknown) => error);
    await expect.poll(() => services.runner.requests.length).toBe(1);
    const signal = services.runner.requests[0]?.signal;
    expect(signal?.aborted).toBe(false);
    await client.close();
    await expect.poll(() => signal?.aborted).toBe(true);
    await running;
  });
});
