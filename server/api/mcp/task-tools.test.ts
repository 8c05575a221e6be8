import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HypothesisView, PlanStepView } from '../../tasks/task-api';
import {
  agentActor,
  call,
  cliActor,
  connectInMemory,
  errorOf,
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

const plan: PlanStepView[] = [
  {
    index: 1,
    title: 'fix mean',
    scope: 'calc.py',
    status: 'open',
    doneAt: null,
    gates: [{ argv: ['python3', '-m', 'pytest', '-q'], lastRun: null }],
  },
];

describe('create_task', () => {
  it('creates a task from a Git URL with every option, as the caller', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'create_task', {
      gitUrl: 'https://example.com/repo.git',
      ref: 'main',
      testCommand: ['python3', '-m', 'pytest', '-q'],
      maxIterations: 2,
      hypothesesPerIteration: 1,
      fixer: 'external',
      allowTestEdits: true,
      plan: [{ title: 'fix mean', gates: [['python3', '-m', 'pytest', '-q']] }],
      maxMemoryMb: 512,
      maxPids: 64,
      maxDiskMb: 100,
    });
    const [created] = services.tasks.created;
    expect(result.structuredContent).toEqual({ id: created?.id });
    expect(created?.actor).toEqual(agentActor);
    expect(created?.input).toEqual({
      source: { kind: 'git', url: 'https://example.com/repo.git', ref: 'main' },
      testCommand: ['python3', '-m', 'pytest', '-q'],
      maxIterations: 2,
      hypothesesPerIteration: 1,
      fixer: 'external',
      allowTestEdits: true,
      plan: [{ title: 'fix mean', gates: [['python3', '-m', 'pytest', '-q']] }],
      limits: { maxMemoryMb: 512, maxPids: 64, maxDiskMb: 100 },
    });
  });

  it('offers no archive upload and requires a Git URL', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const withArchive = await call(client, 'create_task', {
      gitUrl: 'https://example.com/repo.git',
      testCommand: ['pytest'],
      archive: '/tmp/x.tar.gz',
    });
    expect(withArchive.isError).toBe(true);
    expect(textOf(withArchive)).toContain('archive');
    const withoutUrl = await call(client, 'create_task', { testCommand: ['pytest'] });
    expect(withoutUrl.isError).toBe(true);
    expect(textOf(withoutUrl)).toContain('gitUrl');
    expect(services.tasks.created).toEqual([]);
  });
});

const judged: HypothesisView = {
  name: 'fix-mean',
  origin: 'mcp',
  rank: 1,
  verdict: 'failed',
  passed: 3,
  failed: 1,
  skipped: 0,
  exitCode: 1,
  timedOut: false,
  durationMs: 700,
  changedLines: 4,
  mode: 'overlay',
  outputTail: '1 failed',
  error: null,
  buildFailed: false,
  tests: {
    fixed: ['test_calc.py::test_mean'],
    broken: ['test_calc.py::test_sum'],
    stillFailing: ['test_net.py::test_download'],
    missing: ['test_calc.py::test_old'],
    added: [],
    byId: true,
    counts: { fixed: 1, broken: 1, stillFailing: 1, missing: 1, added: 0 },
  },
  disqualified: 'it broke 1 test that passed before',
  sameTreeAs: null,
};

describe('get_task', () => {
  it("declares each hypothesis's tests and why it cannot win in its output schema", async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const { tools } = await client.listTools();
    const schema = tools.find((tool) => tool.name === 'get_task')?.outputSchema as {
      properties: Record<string, { items?: { properties: Record<string, unknown> } }>;
    };
    const iteration = schema.properties.iterations?.items?.properties as Record<
      string,
      { items: { properties: Record<string, unknown> } }
    >;
    const hypothesis = iteration.hypotheses?.items.properties ?? {};
    expect(Object.keys(hypothesis)).toEqual(
      expect.arrayContaining(['tests', 'buildFailed', 'disqualified']),
    );
    expect(JSON.stringify(hypothesis.tests)).toMatch(
      /"fixed".*"broken".*"stillFailing".*"missing"/,
    );
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['setup', 'reviewPartial', 'stillFailing', 'knownFailures']),
    );
  });

  it('answers the tests each hypothesis fixed, broke, left failing and lost', async () => {
    const task = services.tasks.addTask({
      status: 'awaiting_review',
      iterations: [
        { index: 1, status: 'done', winner: null, checkpointSha: null, hypotheses: [judged] },
      ],
      reviewPartial: true,
      stillFailing: ['test_net.py::test_download'],
    });
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'get_task', { taskId: task.id });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      iterations: [{ hypotheses: [{ tests: judged.tests, disqualified: judged.disqualified }] }],
      reviewPartial: true,
      stillFailing: ['test_net.py::test_download'],
    });
  });
});

describe('create_task with a setup', () => {
  it('passes setupCommands, buildCommand and knownFailures through', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'create_task', {
      gitUrl: 'https://example.com/repo.git',
      testCommand: ['npm', 'test'],
      setupCommands: [['npm', 'ci']],
      buildCommand: ['npx', 'tsc', '-p', '.'],
      knownFailures: ['net > downloads'],
    });
    expect(result.isError).toBeFalsy();
    expect(services.tasks.created[0]?.input).toMatchObject({
      setupCommands: [['npm', 'ci']],
      buildCommand: ['npx', 'tsc', '-p', '.'],
      knownFailures: ['net > downloads'],
    });
  });

  it('refuses a setup command that is not an argv, naming the field', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'create_task', {
      gitUrl: 'https://example.com/repo.git',
      testCommand: ['npm', 'test'],
      setupCommands: ['npm ci'],
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('setupCommands');
    expect(services.tasks.created).toEqual([]);
  });
});

describe('submit_hypotheses', () => {
  it('queues hypotheses for the task as the caller and answers the names accepted', async () => {
    const { id } = services.tasks.addTask({ status: 'awaiting_hypotheses' });
    const client = await connectInMemory(services, cliActor, 'stdio');
    const result = await call(client, 'submit_hypotheses', {
      taskId: id,
      hypotheses: [{ name: 'fix', edits: [{ path: 'calc.py', content: 'x\n' }] }],
    });
    expect(result.structuredContent).toEqual({ accepted: ['fix'] });
    expect(services.tasks.submitted).toEqual([
      {
        taskId: id,
        actor: cliActor,
        hypotheses: [{ name: 'fix', edits: [{ path: 'calc.py', content: 'x\n' }], delete: [] }],
      },
    ]);
  });

  it("passes the service's refusal on as an error result", async () => {
    const { id } = services.tasks.addTask({ status: 'awaiting_hypotheses' });
    const client = await connectInMemory(services, agentActor, 'http');
    const hypotheses = [{ name: 'fix' }];
    await call(client, 'submit_hypotheses', { taskId: id, hypotheses });
    const again = await call(client, 'submit_hypotheses', { taskId: id, hypotheses });
    expect(errorOf(again).code).toBe('INVALID_HYPOTHESIS');
  });
});

describe('get_diff', () => {
  it('declares the flags the page reads, leaving those old flags lack optional', async () => {
    const client = await connectInMemory(services, agentActor, 'http');
    const { tools } = await client.listTools();
    const schema = tools.find((tool) => tool.name === 'get_diff')?.outputSchema as {
      properties: Record<string, { properties: Record<string, unknown>; required: string[] }>;
    };
    const flags = schema.properties.flags!;
    expect(Object.keys(flags.properties)).toEqual(
      expect.arrayContaining(['disabledTests', 'testEdits', 'hiddenCharacters', 'large']),
    );
    expect(flags.required).toEqual(expect.arrayContaining(['files', 'large']));
    expect(flags.required).not.toContain('disabledTests');
    expect(flags.required).not.toContain('testEdits');
  });

  it('answers the diff, its hash and flags, and renders the hash before the diff', async () => {
    const { id } = services.tasks.addTask();
    const diff = 'From 0000 Mon Sep 17 00:00:00 2001\n--- a/calc.py\n+++ b/calc.py\n';
    const sha256 = services.tasks.setDiff(id, diff);
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'get_diff', { taskId: id });
    expect(result.structuredContent).toMatchObject({ diff, sha256, flags: { files: 1 } });
    const [head, body] = textOf(result).split('\n\n', 2);
    expect(head).toMatch(new RegExp(`^sha256: ${sha256}\\nflags: \\{.*\\}$`));
    expect(body).toBe(diff);
  });

  it('answers INVALID_STATE while there is no diff', async () => {
    const { id } = services.tasks.addTask();
    const client = await connectInMemory(services, agentActor, 'http');
    expect(errorOf(await call(client, 'get_diff', { taskId: id })).code).toBe('INVALID_STATE');
  });
});

describe('milestone', () => {
  it('maps status, done N and reset N onto the service, as the caller', async () => {
    const { id } = services.tasks.addTask({ plan });
    const client = await connectInMemory(services, agentActor, 'http');
    const status = await call(client, 'milestone', { taskId: id, action: 'status' });
    expect(status.structuredContent).toEqual({
      accepted: true,
      status: { current: plan[0], steps: plan },
    });
    expect(textOf(status)).toBe(JSON.stringify({ current: plan[0], steps: plan }, null, 2));
    await call(client, 'milestone', { taskId: id, action: 'reset', step: 1 });
    expect(services.tasks.milestones).toEqual([
      { taskId: id, action: { action: 'status' }, actor: agentActor },
      { taskId: id, action: { action: 'reset', step: 1 }, actor: agentActor },
    ]);
  });

  it('answers a refused done as a normal result with the reason', async () => {
    const { id } = services.tasks.addTask({ plan });
    const client = await connectInMemory(services, agentActor, 'http');
    const result = await call(client, 'milestone', { taskId: id, action: 'done', step: 1 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      accepted: false,
      reason: 'no gate ran (fake)',
    });
    expect(textOf(result)).toMatch(/^refused: no gate ran \(fake\)\n/);
  });

  it('requires a step for done and reset', async () => {
    const { id } = services.tasks.addTask({ plan });
    const client = await connectInMemory(services, agentActor, 'http');
    for (const action of ['done', 'reset']) {
      const result = await call(client, 'milestone', { taskId: id, action });
      expect(errorOf(result)).toEqual({
        code: 'INVALID_ARGUMENT',
        message: `step is required for '${action}'`,
      });
    }
    expect(services.tasks.milestones).toEqual([]);
  });
});
