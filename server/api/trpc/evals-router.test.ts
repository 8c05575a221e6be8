import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TRPCError } from '@trpc/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../errors/app-error';
import { EvalRunService } from '../../evals/server-runs/eval-run-service';
import type { Actor } from '../../tasks/task-api';
import { fakeUser } from '../../test-support/actors';
import { FakeTaskService } from '../http/test-support/fake-tasks';
import { createContextInner } from './context';
import type { RequestOrigin } from './request-guard';
import { createCaller } from './root';

// evals.* are a thin layer over EvalRunService: the UI header, the role, the output schemas.

const set = JSON.stringify({
  instance_id: 'calc__mean',
  repo: 'https://git.example.com/calc.git',
  base_commit: 'a'.repeat(40),
  patch: '',
  test_patch: '',
  problem_statement: 'mean() floors',
  FAIL_TO_PASS: ['t::mean'],
  PASS_TO_PASS: [],
  test_command: ['pytest'],
});

let dataDir: string;
let evals: EvalRunService;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-evals-router-'));
  evals = new EvalRunService({
    dataDir,
    model: 'fixer',
    attempts: () => ({
      start: (i, attempt) => Promise.resolve(`task-${i.instance_id}-${attempt}`),
      finish: () =>
        Promise.resolve({
          resolved: true,
          tokens: 10,
          costUsd: 0.001,
          durationMs: 5,
          iterations: 1,
          why: 'resolved',
        }),
    }),
    loadOwner: () => Promise.resolve(null),
  });
});
afterEach(async () => {
  await evals.close();
  await rm(dataDir, { recursive: true, force: true });
});

function caller(actor: Actor | null, origin: RequestOrigin = 'ui') {
  return createCaller(
    createContextInner({ runtime: { tasks: new FakeTaskService(), evals }, actor, origin }),
  );
}

const start = { set, setName: 'calc.jsonl', k: 2, parallel: 1, maxIterations: 1 };

describe('evals router', () => {
  it('starts a run for a reviewer and reads it back through list and get', async () => {
    const rita = caller(fakeUser('rita', 'reviewer'));
    const started = await rita.evals.start(start);
    expect(started).toMatchObject({ state: 'running', attempts: 2, model: 'fixer' });
    await evals.settled(started.runId);
    const list = await rita.evals.list();
    expect(list.runs[0]).toMatchObject({ runId: started.runId, state: 'done', resolved: 2 });
    const detail = await rita.evals.get({ runId: started.runId });
    expect(detail.summary['pass@1']).toBe(1);
  });

  it('refuses an author, nobody signed in, and a call not made by the UI', async () => {
    const code = (promise: Promise<unknown>) =>
      promise.then(
        () => 'ok',
        (error: unknown) => {
          if (!(error instanceof TRPCError)) return 'other';
          return isAppError(error.cause) ? error.cause.code : error.code;
        },
      );
    expect(await code(caller(fakeUser('ann', 'author')).evals.start(start))).toBe('FORBIDDEN');
    expect(await code(caller(null).evals.list())).toBe('UNAUTHENTICATED');
    expect(await code(caller(fakeUser('rita', 'reviewer'), 'cross-site').evals.start(start))).toBe(
      'FORBIDDEN',
    );
  });

  it('refuses a run id that is not one before the service sees it', async () => {
    const rita = caller(fakeUser('rita', 'reviewer'));
    await expect(rita.evals.get({ runId: '../../etc/passwd' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});
