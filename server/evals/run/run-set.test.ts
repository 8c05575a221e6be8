import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EvalInstance } from '../eval-instance';
import { readRunFile, writeRunFile, type RunFile } from './run-file';
import { newRunFile, runEvalSet, type AttemptOutcome, type EvalAttemptPort } from './run-set';

const instance = (id: string): EvalInstance => ({
  instance_id: id,
  repo: '/repos/calc',
  base_commit: 'a'.repeat(40),
  patch: '',
  test_patch: '',
  problem_statement: `fix ${id}`,
  hints_text: '',
  created_at: '',
  FAIL_TO_PASS: ['t::f'],
  PASS_TO_PASS: [],
  test_command: ['python3', '-m', 'pytest'],
});

const outcome = (resolved: boolean): AttemptOutcome => ({
  resolved,
  tokens: 1000,
  costUsd: 0.0026,
  durationMs: 50,
  iterations: 1,
  why: resolved ? 'resolved' : 'FAIL_TO_PASS still failing: t::f',
});

/** A port whose tasks resolve as `resolves(instance id, attempt)` says; it logs every call. */
function fakePort(resolves: (id: string, attempt: number) => boolean) {
  const started: string[] = [];
  const finished: string[] = [];
  const attemptOf = new Map<string, [string, number]>();
  const port: EvalAttemptPort = {
    start: (i, attempt) => {
      const taskId = `task-${i.instance_id}-${attempt}`;
      started.push(taskId);
      attemptOf.set(taskId, [i.instance_id, attempt]);
      return Promise.resolve(taskId);
    },
    finish: (_i, taskId) => {
      finished.push(taskId);
      const [id, attempt] = attemptOf.get(taskId) ?? [taskId, -1];
      return Promise.resolve(outcome(resolves(id, attempt)));
    },
  };
  return { port, started, finished };
}

const fresh = (instances: readonly EvalInstance[], k: number): RunFile =>
  newRunFile({
    runId: 'run1',
    set: 'set.jsonl',
    fixer: 'llm',
    model: 'm',
    k,
    maxIterations: 3,
    startedAt: '2026-12-06T00:00:00.000Z',
    instances,
  });

describe('runEvalSet', () => {
  it('runs k attempts per instance and sums them up', async () => {
    const instances = [instance('a'), instance('b')];
    const { port, started } = fakePort((id, attempt) => id === 'a' || attempt === 0);
    const saves: RunFile[] = [];
    const progress: number[] = [];
    const run = await runEvalSet({
      instances,
      run: fresh(instances, 3),
      parallel: 2,
      port,
      save: (r) => {
        saves.push(r);
        return Promise.resolve();
      },
      progress: (p) => progress.push(p.attemptsDone),
    });
    expect(started).toHaveLength(6);
    expect(run.summary).toMatchObject({
      instances: 2,
      attempts: 6,
      resolved: 4,
      tokens: 6000,
      'pass@1': 0.666667,
      'pass@k': 1,
      'pass^k': 0.5,
    });
    expect(run.summary.costUsd).toBeCloseTo(6 * 0.0026, 9);
    expect(run.instances.map((i) => i.attempts.map((a) => a.resolved))).toEqual([
      [true, true, true],
      [true, false, false],
    ]);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
    // Each task is recorded running as soon as it exists, before it is awaited.
    expect(saves[0]?.instances[0]?.attempts[0]).toMatchObject({
      state: 'running',
      taskId: 'task-a-0',
    });
  });

  it('never reruns a recorded attempt: done ones are kept, running ones awaited, not recreated', async () => {
    const instances = [instance('a')];
    const crashed = fresh(instances, 3);
    crashed.instances[0]?.attempts.push(
      { attempt: 0, state: 'done', taskId: 'old-0', ...outcome(true) },
      { attempt: 1, state: 'running', taskId: 'old-1', ...outcome(false), why: 'running' },
    );
    const { port, started, finished } = fakePort(() => false);
    const run = await runEvalSet({
      instances,
      run: crashed,
      parallel: 3,
      port,
      save: () => Promise.resolve(),
    });
    expect(started).toEqual(['task-a-2']);
    expect(finished.sort()).toEqual(['old-1', 'task-a-2']);
    expect(run.instances[0]?.attempts.map((a) => [a.taskId, a.state, a.resolved])).toEqual([
      ['old-0', 'done', true],
      ['old-1', 'done', false],
      ['task-a-2', 'done', false],
    ]);
  });

  it('records an attempt whose task could not be made, and goes on', async () => {
    const instances = [instance('a'), instance('b')];
    const { port } = fakePort(() => true);
    const refusing: EvalAttemptPort = {
      ...port,
      start: async (i, attempt) => {
        if (i.instance_id === 'a') throw new Error('base_commit not found');
        return port.start(i, attempt);
      },
    };
    const run = await runEvalSet({
      instances,
      run: fresh(instances, 1),
      parallel: 1,
      port: refusing,
      save: () => Promise.resolve(),
    });
    expect(run.instances[0]?.attempts[0]).toMatchObject({
      taskId: null,
      resolved: false,
      why: 'the task could not be created: base_commit not found',
    });
    expect(run.summary).toMatchObject({ attempts: 2, resolved: 1, 'pass@1': 0.5 });
  });

  it('keeps running attempts on a fault, saves them and throws', async () => {
    const instances = [instance('a')];
    const { port } = fakePort(() => true);
    let saved: RunFile | null = null;
    const broken: EvalAttemptPort = {
      ...port,
      finish: () => Promise.reject(new Error('database is locked')),
    };
    await expect(
      runEvalSet({
        instances,
        run: fresh(instances, 1),
        parallel: 1,
        port: broken,
        save: (r) => {
          saved = r;
          return Promise.resolve();
        },
      }),
    ).rejects.toThrow('database is locked');
    expect((saved as RunFile | null)?.instances[0]?.attempts[0]).toMatchObject({
      state: 'running',
      taskId: 'task-a-0',
    });
  });
});

describe('the run file', () => {
  let dir = '';
  afterEach(async () => {
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  it('writes atomically (no temporary file left) and reads back what it wrote', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-run-file-'));
    const file = path.join(dir, 'RUN.json');
    expect(await readRunFile(file)).toBeNull();
    const run = fresh([instance('a')], 2);
    await writeRunFile(file, run);
    await writeRunFile(file, { ...run, model: 'n' });
    expect(await readdir(dir)).toEqual(['RUN.json']);
    expect((await readRunFile(file))?.model).toBe('n');
    const json = JSON.parse(await readFile(file, 'utf8')) as { summary: object };
    expect(Object.keys(json.summary)).toEqual(
      expect.arrayContaining([
        'instances',
        'attempts',
        'resolved',
        'pass@1',
        'pass@k',
        'pass^k',
        'tokens',
        'costUsd',
      ]),
    );
  });

  it('refuses a file that is not a run, naming the field', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-run-file-'));
    const file = path.join(dir, 'RUN.json');
    await writeRunFile(file, fresh([instance('a')], 2));
    const text = (await readFile(file, 'utf8')).replace('"k": 2', '"k": "two"');
    await writeFile(file, text);
    await expect(readRunFile(file)).rejects.toThrow(/is not an eval run: k/);
  });
});
