import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatReport } from '../../engine/shadow';
import {
  agentActor,
  call,
  cliActor,
  connectInMemory,
  errorOf,
  textOf,
} from './test-support/clients';
import {
  cannedReport,
  createFakeServices,
  FakeShadowRunner,
  type FakeServices,
} from './test-support/fake-services';

const hypotheses = [
  { name: 'plus', edits: [{ path: 'calc.py', content: 'a + b\n' }] },
  { name: 'mul', edits: [{ path: 'calc.py', content: 'a * b\n' }], delete: ['old.py'] },
];
const pytest = ['python3', '-m', 'pytest', '-q'];

let services: FakeServices;

beforeEach(async () => {
  services = await createFakeServices();
});

afterEach(async () => {
  await services.dispose();
});

/** A task whose worktree exists, as after its baseline. */
async function taskWithWorktree(): Promise<string> {
  const { id } = services.tasks.addTask({ status: 'awaiting_hypotheses' });
  await mkdir(path.join(services.worktrees, id));
  return id;
}

describe('shadow_run over stdio (the local user)', () => {
  it('runs in the given workspace, never applies, and returns the shadow-run --json object', async () => {
    const client = await connectInMemory(services, cliActor, 'stdio');
    const result = await call(client, 'shadow_run', {
      hypotheses,
      command: ['make', 'check'], // the command policy is for remote agents only
      workspace: '/home/me/project',
      parallel: 2,
      timeoutSecs: 30,
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(cannedReport);
    expect(textOf(result)).toBe(
      formatReport(cannedReport, { command: ['make', 'check'], workspace: '/home/me/project' }),
    );
    const [request] = services.runner.requests;
    expect(request).toMatchObject({
      workspace: '/home/me/project',
      command: ['make', 'check'],
      apply: false,
      parallel: 2,
      timeoutMs: 30_000,
      hypotheses: [
        { name: 'plus', edits: [{ path: 'calc.py', content: 'a + b\n' }], delete: [] },
        { name: 'mul', edits: [{ path: 'calc.py', content: 'a * b\n' }], delete: ['old.py'] },
      ],
    });
    expect(request?.signal).toBeInstanceOf(AbortSignal);
  });

  it('refuses a relative workspace, both workspace and taskId, and neither', async () => {
    const client = await connectInMemory(services, cliActor, 'stdio');
    const taskId = await taskWithWorktree();
    const cases = [{ workspace: 'project' }, { workspace: '/home/me/project', taskId }, {}];
    for (const where of cases) {
      const result = await call(client, 'shadow_run', { hypotheses, command: pytest, ...where });
      expect(errorOf(result).code).toBe('INVALID_ARGUMENT');
    }
    expect(services.runner.requests).toEqual([]);
  });

  it('runs in a task worktree when given taskId', async () => {
    const client = await connectInMemory(services, cliActor, 'stdio');
    const taskId = await taskWithWorktree();
    const result = await call(client, 'shadow_run', { hypotheses, command: pytest, taskId });
    expect(result.isError).toBeFalsy();
    expect(services.runner.requests[0]?.workspace).toBe(path.join(services.worktrees, taskId));
    expect(textOf(result)).toContain(`on task ${taskId}`);
  });

  it('reports each finished hypothesis as progress when the client asks for it', async () => {
    const client = await connectInMemory(services, cliActor, 'stdio');
    const progress: Progress[] = [];
    await call(
      client,
      'shadow_run',
      { hypotheses, command: pytest, workspace: '/w' },
      { onprogress: (p) => progress.push(p) },
    );
    expect(progress).toMatchObject([
      { progress: 1, total: 2, message: 'plus: exit 0, 2 passed, 0 failed' },
      { progress: 2, total: 2, message: 'mul: exit 1, 0 passed, 2 failed' },
    ]);
  });
});

describe('shadow_run over HTTP (a token)', () => {
  it('refuses a workspace: a remote agent runs only in a task worktree', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'shadow_run', {
      hypotheses,
      command: pytest,
      workspace: '/etc',
    });
    expect(errorOf(result)).toMatchObject({ code: 'FORBIDDEN' });
    expect(errorOf(result).message).toContain('taskId');
    expect(services.runner.requests).toEqual([]);
  });

  it('requires taskId', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'shadow_run', { hypotheses, command: pytest });
    expect(errorOf(result)).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(errorOf(result).message).toContain('taskId is required');
  });

  it('refuses a command the command policy does not allow', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const taskId = await taskWithWorktree();
    for (const command of [
      ['sh', '-c', 'cat /etc/passwd'],
      ['python3', '-m', 'pytest', '-p', 'evil'],
    ]) {
      const result = await call(client, 'shadow_run', { hypotheses, command, taskId });
      expect(errorOf(result).code).toBe('COMMAND_NOT_ALLOWED');
    }
    expect(services.runner.requests).toEqual([]);
  });

  it("runs an allowed command in the task's worktree, read-only", async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const taskId = await taskWithWorktree();
    const result = await call(client, 'shadow_run', { hypotheses, command: pytest, taskId });
    expect(result.structuredContent).toEqual(cannedReport);
    expect(services.runner.requests[0]).toMatchObject({
      workspace: path.join(services.worktrees, taskId),
      apply: false,
    });
    expect(textOf(result)).not.toContain(services.worktrees);
  });

  it("runs with the task's own caps and takes none from the agent (no lifting a cap)", async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const { id: taskId } = services.tasks.addTask({
      status: 'awaiting_hypotheses',
      limits: { maxMemoryMb: 256, maxPids: null, maxDiskMb: null, maxInodes: 5000 },
    });
    await mkdir(path.join(services.worktrees, taskId));
    await call(client, 'shadow_run', { hypotheses, command: pytest, taskId });
    expect(services.runner.requests[0]?.limits).toEqual({ maxMemoryMb: 256, maxInodes: 5000 });
    const lifted = await call(client, 'shadow_run', {
      hypotheses,
      command: pytest,
      taskId,
      maxMemoryMb: 999_999,
    });
    expect(lifted.isError).toBe(true);
    expect(textOf(lifted)).toBe(
      'MCP error -32602: Input validation error: Invalid arguments for tool shadow_run: Unrecognized key: "maxMemoryMb"',
    );
    expect(services.runner.requests).toHaveLength(1);
  });

  it('runs at most one hypothesis per core at once for a remote agent', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const taskId = await taskWithWorktree();
    await call(client, 'shadow_run', { hypotheses, command: pytest, taskId, parallel: 64 });
    expect(services.runner.requests[0]?.parallel).toBe(Math.min(64, os.availableParallelism()));
  });

  it('answers NOT_FOUND for an unknown task and INVALID_STATE for a task without a worktree', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const unknown = await call(client, 'shadow_run', {
      hypotheses,
      command: pytest,
      taskId: 'c0123456789abcdef01234567',
    });
    expect(errorOf(unknown).code).toBe('NOT_FOUND');
    const { id } = services.tasks.addTask({ status: 'queued' });
    const queued = await call(client, 'shadow_run', { hypotheses, command: pytest, taskId: id });
    expect(errorOf(queued)).toEqual({
      code: 'INVALID_STATE',
      message: `task ${id} is queued and has no worktree yet`,
    });
  });

  it('refuses to run in a task worktree in place (it would write there)', async () => {
    const inplace = await createFakeServices({
      runner: new FakeShadowRunner('inplace', 'no user namespaces'),
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined); // a 503 is logged
    try {
      const client = await connectInMemory(inplace, agentActor, 'http');
      const { id } = inplace.tasks.addTask({ status: 'awaiting_hypotheses' });
      await mkdir(path.join(inplace.worktrees, id));
      const result = await call(client, 'shadow_run', { hypotheses, command: pytest, taskId: id });
      expect(errorOf(result)).toMatchObject({ code: 'SANDBOX_UNAVAILABLE' });
      expect(errorOf(result).message).toContain('no user namespaces');
      expect(inplace.runner.requests).toEqual([]);
    } finally {
      logged.mockRestore();
      await inplace.dispose();
    }
  });
});
