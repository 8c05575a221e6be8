import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureProject } from '../../test-support/projects';
import { call, errorOf } from './test-support/clients';
import { startRealMcpServer, type RealMcpServer } from './test-support/real-server';

const project = fixtureProject('pytest-calc');

let server: RealMcpServer;
let agentToken: string;

beforeAll(async () => {
  server = await startRealMcpServer();
  agentToken = await server.token(['agent']);
});

afterAll(async () => {
  await server.close();
});

describe('MCP at /api/mcp with a real runtime and real tokens', () => {
  it('lists the tools to an agent token; none approves or rejects', async () => {
    const client = await server.connect(agentToken);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'compare_hypotheses',
      'create_task',
      'get_batch',
      'get_diff',
      'get_task',
      'list_threads',
      'milestone',
      'reply_to_thread',
      'shadow_run',
      'stop_waiting',
      'submit_hypotheses',
    ]);
  });

  it('answers 401 without a token, with a revoked-or-unknown token, and the client cannot connect', async () => {
    for (const headers of [{}, { Authorization: 'Bearer sbx_unknown' }] as Record<
      string,
      string
    >[]) {
      const response = await fetch(server.served.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    }
    await expect(server.connect('sbx_unknown')).rejects.toMatchObject({ code: 401 });
  });

  it('refuses shadow_run with a workspace: a remote agent may not pick a server directory', async () => {
    const client = await server.connect(agentToken);
    const result = await call(client, 'shadow_run', {
      hypotheses: [project.hypotheses.right],
      command: [...project.testCommand],
      workspace: project.dir,
    });
    expect(errorOf(result)).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('answers get_task of an unknown id with NOT_FOUND', async () => {
    const client = await server.connect(agentToken);
    const result = await call(client, 'get_task', { taskId: 'c0123456789abcdef01234567' });
    expect(errorOf(result)).toEqual({
      code: 'NOT_FOUND',
      message: 'no task c0123456789abcdef01234567',
    });
  });

  it('refuses every tool to a token without the agent scope', async () => {
    const client = await server.connect(await server.token(['reviewer']));
    const result = await call(client, 'get_task', { taskId: 'c0123456789abcdef01234567' });
    expect(errorOf(result).code).toBe('FORBIDDEN');
  });

  it('refuses create_task with a private-address Git URL', async () => {
    const client = await server.connect(agentToken);
    const result = await call(client, 'create_task', {
      gitUrl: 'https://10.1.2.3/repo.git',
      testCommand: [...project.testCommand],
    });
    expect(errorOf(result).code).toBe('URL_PRIVATE_ADDRESS');
  });
});
