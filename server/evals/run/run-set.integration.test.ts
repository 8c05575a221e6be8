import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultGitUrlPolicy } from '../../engine';
import { loadLlmConfig } from '../../llm/llm-config';
import type { Actor } from '../../tasks/task-api';
import { userIn } from '../../test-support/actors';
import { requestText, startFakeOpenAi, type FakeOpenAi } from '../../test-support/fake-openai';
import { openScratchRuntime, type ScratchRuntime } from '../../test-support/scratch-runtime';
import type { EvalInstance } from '../eval-instance';
import { baseCalcTests, calcEvalSet, fixedMean, subtractWith } from '../test-support/calc-eval-set';
import { readRunFile, writeRunFile, type RunFile } from './run-file';
import { newRunFile, runEvalSet } from './run-set';
import { runtimeAttempts } from './runtime-attempts';

// A repository with two bugs, two instances written by hand in the set format (each: the base
// commit, a test patch adding the failing test, the reference fix), and a model that answers the
// reference fix for one and a wrong fix for the other: pass@1 = 0.5, spend reported. A model that
// deletes the failing test instead resolves nothing.

const usage = { prompt_tokens: 900, completion_tokens: 100 };

let fake: FakeOpenAi;
let scratch: ScratchRuntime;
let owner: Actor;
let dir: string;
let instances: EvalInstance[];
/** What the model does: fix as told (right for mean, wrong for subtract), or cheat. */
let mode: 'honest' | 'cheat' = 'honest';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-eval-run-'));
  ({ instances } = await calcEvalSet(dir));

  fake = await startFakeOpenAi((request) => {
    const text = requestText(request);
    const edit = (p: string, content: string) => ({ path: p, content });
    if (mode === 'cheat') {
      // Deletes the failing test and touches nothing else.
      const answer = { name: 'drop-the-test', edits: [edit('test_calc.py', baseCalcTests)] };
      return { content: JSON.stringify(answer), usage };
    }
    const answer = text.includes('test_mean')
      ? { name: 'true-division', edits: [edit('calc.py', fixedMean)] }
      : { name: 'multiply', edits: [edit('calc.py', subtractWith('*'))] };
    return { content: JSON.stringify(answer), usage };
  });
  const llm = loadLlmConfig({
    SHADOWBOX_LLM_BASE_URL: fake.url,
    SHADOWBOX_LLM_MODEL: 'fixer',
    SHADOWBOX_LLM_PRICE_INPUT_PER_MTOK: '2',
    SHADOWBOX_LLM_PRICE_OUTPUT_PER_MTOK: '8',
  });
  scratch = await openScratchRuntime('sbx-eval-run-rt-', { llm, taskConcurrency: 2 });
  owner = await userIn(scratch.runtime.db, 'alice');
});

afterAll(async () => {
  await scratch.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

async function runSet(
  runId: string,
  which: readonly EvalInstance[],
  start: RunFile | null,
): Promise<{ run: RunFile; file: string }> {
  const file = path.join(dir, `${runId}.json`);
  const run = await runEvalSet({
    instances: which,
    run:
      start ??
      newRunFile({
        runId,
        set: 'set.jsonl',
        fixer: 'llm',
        model: 'fixer',
        k: 1,
        maxIterations: 1,
        startedAt: new Date().toISOString(),
        instances: which,
      }),
    parallel: 2,
    port: runtimeAttempts({
      runtime: scratch.runtime,
      actor: owner,
      runId,
      maxIterations: 1,
      gitPolicy: defaultGitUrlPolicy,
      cwd: dir,
      attemptTimeoutMs: 240_000,
      pollMs: 200,
    }),
    save: (r) => writeRunFile(file, r),
  });
  return { run, file };
}

describe('eval run on the engine', () => {
  it('resolves the instance the model fixes and not the other: pass@1 = 0.5, with spend', async () => {
    const { run, file } = await runSet('honest', instances, null);
    const why = JSON.stringify(run.instances, null, 1);
    expect(run.summary, why).toMatchObject({
      instances: 2,
      attempts: 2,
      resolved: 1,
      'pass@1': 0.5,
      'pass@k': 0.5,
      'pass^k': 0.5,
      tokens: 2000,
    });
    // 1,000 tokens a task at (900 × 2 + 100 × 8) / 1e6 $.
    expect(run.summary.costUsd).toBeCloseTo(2 * 0.0026, 9);
    const [mean, subtract] = run.instances;
    expect(mean?.attempts[0]).toMatchObject({ resolved: true, tokens: 1000, iterations: 1 });
    expect(mean?.attempts[0]?.why).toMatch(/^resolved: 1 FAIL_TO_PASS pass/);
    expect(subtract?.attempts[0]).toMatchObject({ resolved: false, tokens: 1000 });
    expect(subtract?.attempts[0]?.why).toMatch(/^the task ended failed/);
    expect(await readRunFile(file)).toEqual(run);

    // The attempts are the owner's tasks, in the eval scope: out of the ordinary list.
    const tasks = scratch.runtime.tasks;
    expect((await tasks.listTasks(owner)).tasks).toHaveLength(0);
    const evals = await tasks.listTasks(owner, { scope: 'evals' });
    expect(evals.tasks.map((t) => t.id).sort()).toEqual(
      run.instances.map((i) => i.attempts[0]?.taskId).sort(),
    );
    expect(evals.tasks.every((t) => t.owner === 'alice')).toBe(true);

    // Run again on its file: every attempt is recorded, none starts again.
    const asked = fake.requests.length;
    const again = await runSet('honest', instances, await readRunFile(file));
    expect(fake.requests.length).toBe(asked);
    expect(again.run.instances).toEqual(run.instances);
    expect((await tasks.listTasks(owner, { scope: 'evals' })).tasks).toHaveLength(2);
  });

  it('does not count a fix that deletes the failing test as resolved', async () => {
    mode = 'cheat';
    const { run } = await runSet('cheat', instances.slice(0, 1), null);
    expect(run.summary).toMatchObject({ attempts: 1, resolved: 0, 'pass@1': 0 });
    expect(run.instances[0]?.attempts[0]?.resolved).toBe(false);
    // The engine never lets a test-editing hypothesis win, so the task ends with no fix.
    expect(run.instances[0]?.attempts[0]?.why).toMatch(/^the task ended failed/);
  });
});
