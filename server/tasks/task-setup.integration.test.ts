// Real projects with dependencies and pre-existing failures, end to end through the task service:
// setup through the egress proxy (the npm registry is reachable from these machines), a cached
// second setup, and a partial fix that goes to review instead of rolling back.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerRuntime } from '../runtime';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import { registryEntry } from '../test-support/egress-fixtures';
import type { Actor, TaskView } from './task-api';
import { tokenIn } from '../test-support/actors';

let scratch: ScratchRuntime;
let runtime: ServerRuntime;
/** The agent token of the tasks' owner. */
let agent: Actor;

async function waitFor(
  taskId: string,
  done: (task: TaskView) => boolean,
  timeoutMs = 180_000,
): Promise<TaskView> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const task = await runtime.tasks.getTask(taskId, agent);
    if (done(task)) return task;
    if (Date.now() > until) throw new Error(`timed out; task is ${JSON.stringify(task, null, 1)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const settled = (t: TaskView): boolean =>
  ['awaiting_hypotheses', 'awaiting_review', 'failed', 'interrupted'].includes(t.status);

/** Packs `files` as a tar.gz in the server's upload directory. */
async function upload(name: string, files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-proj-'));
  for (const [relative, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
    await writeFile(path.join(dir, relative), content);
  }
  const file = path.join(runtime.uploadDir, `${name}-${Date.now()}.tar.gz`);
  await execa('tar', ['-czf', file, '-C', dir, '.']);
  await rm(dir, { recursive: true, force: true });
  return file;
}

beforeAll(async () => {
  // The registry npm is configured with; on these machines its name resolves to a documentation
  // address, which an operator of such a network allows with `=local`.
  const registry = (await execa('npm', ['config', 'get', 'registry'])).stdout.trim();
  const { entry } = await registryEntry(registry);
  scratch = await openScratchRuntime(
    'sbx-setup-task-',
    { gatherMs: 300 },
    { egressAllow: `+${entry}` },
  );
  runtime = scratch.runtime;
  agent = await tokenIn(runtime.db, 'alice', ['agent']);
});

afterAll(async () => {
  await scratch.close();
});

describe('a Node project with a real dependency', () => {
  const calc = (op: string): string => `exports.add = (a, b) => a ${op} b;\n`;
  let files: Record<string, string>;

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-lock-'));
    const manifest = JSON.stringify(
      { name: 'calc', version: '1.0.0', private: true, devDependencies: { 'is-number': '7.0.0' } },
      null,
      2,
    );
    await writeFile(path.join(dir, 'package.json'), manifest);
    await execa('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit'], {
      cwd: dir,
    });
    const { readFile } = await import('node:fs/promises');
    files = {
      'package.json': manifest,
      'package-lock.json': await readFile(path.join(dir, 'package-lock.json'), 'utf8'),
      'calc.js': calc('-'),
      'calc.test.js': [
        "const test = require('node:test');",
        "const assert = require('node:assert');",
        "const isNumber = require('is-number');",
        "const { add } = require('./calc');",
        "test('adds', () => assert.strictEqual(add(2, 3), 5));",
        "test('its result is a number', () => assert.ok(isNumber(add(1, 1))));",
        '',
      ].join('\n'),
    };
    await rm(dir, { recursive: true, force: true });
  });

  it('installs through the egress proxy before the baseline, keeps node_modules out of the diff, and a second task reuses the setup', async () => {
    const create = async (): Promise<string> =>
      (
        await runtime.tasks.createTask(
          {
            source: { kind: 'archive', file: await upload('node', files), name: 'node.tar.gz' },
            testCommand: ['node', '--test'],
            maxIterations: 1,
          },
          agent,
        )
      ).id;
    const first = await create();
    const waiting = await waitFor(first, settled);
    expect(waiting.error ?? waiting.status).toBe('awaiting_hypotheses');
    expect(waiting.setup).toMatchObject({
      commands: [['npm', 'ci', '--no-audit', '--no-fund']],
      detected: true,
      cached: false,
    });
    expect(waiting.setup?.egress.some((record) => record.allowed)).toBe(true);
    expect(waiting.baseline).toMatchObject({ passed: 1, failed: 1 });

    await runtime.tasks.submitHypotheses(
      first,
      [{ name: 'fix-add', edits: [{ path: 'calc.js', content: calc('+') }], delete: [] }],
      agent,
    );
    const reviewed = await waitFor(first, (t) => t.status !== 'awaiting_hypotheses' && settled(t));
    expect(reviewed.status).toBe('awaiting_review');
    expect(reviewed.reviewPartial).toBe(false);
    const diff = await runtime.tasks.getDiff(first, agent);
    expect(diff.diff).toContain('calc.js');
    expect(diff.diff).not.toContain('node_modules');

    const second = await create();
    const again = await waitFor(second, settled);
    expect(again.setup).toMatchObject({ cached: true });
    expect(again.baseline).toMatchObject({ passed: 1, failed: 1 });
  });
});

describe('a pytest project with an environmental failure', () => {
  it('a fix of the real bug goes to review marked partial, listing the test that still fails', async () => {
    const file = await upload('py', {
      'calc.py': 'def add(a, b):\n    return a - b\n',
      'test_calc.py': 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n',
      'test_env.py':
        'def test_needs_a_service():\n    import shadowbox_absent_module  # noqa: F401\n',
    });
    const { id } = await runtime.tasks.createTask(
      {
        source: { kind: 'archive', file, name: 'py.tar.gz' },
        testCommand: ['python3', '-m', 'pytest', '-v'],
        maxIterations: 1,
      },
      agent,
    );
    await waitFor(id, settled);
    await runtime.tasks.submitHypotheses(
      id,
      [
        {
          name: 'fix-add',
          edits: [{ path: 'calc.py', content: 'def add(a, b):\n    return a + b\n' }],
          delete: [],
        },
      ],
      agent,
    );
    const reviewed = await waitFor(id, (t) => t.status !== 'awaiting_hypotheses' && settled(t));
    expect(reviewed.status).toBe('awaiting_review');
    expect(reviewed.reviewPartial).toBe(true);
    expect(reviewed.stillFailing).toEqual([expect.stringContaining('test_needs_a_service')]);
  });
});
