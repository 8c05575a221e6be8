import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createToken,
  ensureBuilt,
  startServer,
  type ServerHandle,
} from '../../test-support/app-server';
import { call, errorOf } from './test-support/clients';

/** `app/api/mcp/route.ts` in the built app under `next start`, with a token made by the CLI. */

let dataDir: string;
let app: ServerHandle;
let endpoint: URL;

beforeAll(async () => {
  await ensureBuilt();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-mcp-route-'));
  app = await startServer({ dataDir });
  endpoint = new URL('/api/mcp', app.url);
}, 1_200_000);

afterAll(async () => {
  await app.kill();
  await rm(dataDir, { recursive: true, force: true });
});

describe('POST /api/mcp under next start', () => {
  it('serves the tools to an agent token and refuses a request without one', async () => {
    const token = await createToken(dataDir, ['agent'], { name: 'mcp-route' });
    const client = new Client({ name: 'shadowbox-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(endpoint, {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(11);
      const result = await call(client, 'get_task', { taskId: 'c0123456789abcdef01234567' });
      expect(errorOf(result).code).toBe('NOT_FOUND');
    } finally {
      await client.close();
    }

    const anonymous = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
  });
});
