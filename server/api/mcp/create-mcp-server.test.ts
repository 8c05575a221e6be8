import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

describe('createMcpServer', () => {
  it('lists the eleven tools, each with input and output schemas, and none that reviews', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
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
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description).not.toBe('');
      expect(tool.name).not.toMatch(/approve|reject|review|resolve|dismiss|request/);
    }
    const create = tools.find((tool) => tool.name === 'create_task');
    expect(Object.keys(create?.inputSchema.properties ?? {})).not.toContain('archive');
  });

  it('refuses a token without the agent scope, as a FORBIDDEN tool result', async () => {
    const task = services.tasks.addTask();
    const client = await connectInMemory(services, reviewerOnlyActor, 'http');
    const result = await call(client, 'get_task', { taskId: task.id });
    expect(errorOf(result)).toMatchObject({ code: 'FORBIDDEN' });
    expect(errorOf(result).message).toContain("'agent' scope");
  });

  it('lets an agent token and the local user through', async () => {
    const task = services.tasks.addTask();
    for (const actor of [agentActor, cliActor]) {
      const client = await connectInMemory(services, actor, actor === cliActor ? 'stdio' : 'http');
      const result = await call(client, 'get_task', { taskId: task.id });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ id: task.id, status: 'queued' });
    }
  });

  it('turns an AppError into an error result with its code and message', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const unknown = await call(client, 'get_task', { taskId: 'c0123456789abcdef01234567' });
    expect(unknown.structuredContent).toBeUndefined();
    expect(errorOf(unknown)).toEqual({
      code: 'NOT_FOUND',
      message: 'no task c0123456789abcdef01234567',
    });
    // Not an id at all: refused the way REST refuses it, before the service is asked.
    const malformed = await call(client, 'get_task', { taskId: '../etc' });
    expect(errorOf(malformed).code).toBe('NOT_FOUND');
  });

  it('answers a fault that is not an AppError as INTERNAL without its message', async () => {
    const task = services.tasks.addTask();
    services.tasks.getTask = () => Promise.reject(new Error('database exploded at /secret/path'));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'get_task', { taskId: task.id });
    expect(errorOf(result)).toEqual({ code: 'INTERNAL', message: 'internal error' });
    expect(textOf(result)).not.toContain('secret');
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
  });

  it('reports invalid arguments as an error result naming the field', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'get_task', { taskId: 42 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('taskId');
  });
});
