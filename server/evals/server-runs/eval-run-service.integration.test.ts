import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPerson, type Actor } from '../../auth';
import { defaultGitUrlPolicy } from '../../engine';
import { loadLlmConfig } from '../../llm/llm-config';
import { userIn } from '../../test-support/actors';
import { startFakeOpenAi, requestText, type FakeOpenAi } from '../../test-support/fake-openai';
import { testGit } from '../../test-support/git-fixtures';
import { openScratchRuntime, type ScratchRuntime } from '../../test-support/scratch-runtime';
import { readRunFile } from '../run/run-file';
import { runtimeAttempts } from '../run/runtime-attempts';
import { evalRunFiles } from './eval-run-files';
import { EvalRunService } from './eval-run-service';
import type { EvalRunProgress } from './eval-run-view';

// A run started through the service on a real runtime (the same as the server's, with a local
// repository under an allowed root) against a fake OpenAI-compatible server that fixes one bug of
// two: its progress is read to the end (pass@1 = 0.5, with spend). A second run is stopped with
// its tasks made and resumed by a new service, as at a restart: each task is made and fixed once.

const buggy = `def subtract(a, b):
    return a + b


def mean(values):
    return sum(values) // len(values)
`;
const baseTests = `def test_nothing():
    assert True
`;
const withTest = (name: string, body: string) => `${baseTests}

def test_${name}():
    from calc import ${name}
    ${body}
`;
const usage = { prompt_tokens: 900, completion_tokens: 100 };

let fake: FakeOpenAi;
let scratch: ScratchRuntime;
let reviewer: Actor;
let dir: string;
let set: string;

async function patchOf(repo: string, file: string, content: string): Promise<string> {
  await writeFile(path.join(repo, file), content);
  const diff = await testGit(repo, ['diff', '--', file]);
  await testGit(repo, ['checkout', '--', '.']);
  return `${diff}\n`;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-eval-server-'));
  const repo = path.join(dir, 'repos', 'calc');
  await testGit(dir, ['init', '-q', '-b', 'main', repo]);
  await writeFile(path.join(repo, 'calc.py'), buggy);
  await writeFile(path.join(repo, 'test_calc.py'), baseTests);
  await testGit(repo, ['add', '-A']);
  await testGit(repo, ['commit', '-q', '-m', 'calc with two bugs']);
  const base = await testGit(repo, ['rev-parse', 'HEAD']);
  const instance = async (name: string, body: string) =>
    JSON.stringify({
      instance_id: `calc__${name}`,
      repo,
      base_commit: base,
      patch: '',
      test_patch: await patchOf(repo, 'test_calc.py', withTest(name, body)),
      problem_statement: `${name}() is wrong`,
      FAIL_TO_PASS: [`test_calc.py::test_${name}`],
      PASS_TO_PASS: ['test_calc.py::test_nothing'],
      test_command: ['python3', '-m', 'pytest', '-q'],
    });
  set = [
    await instance('mean', 'assert mean([1, 2]) == 1.5'),
    await instance('subtract', 'assert subtract(5, 3) == 2'),
  ].join('\n');

  fake = await startFakeOpenAi((request) => {
    // Right for mean, wrong for subtract.
    const content = requestText(request).includes('test_mean')
      ? buggy.replace('//', '/')
      : buggy.replace('return a + b', 'return a * b');
    const answer = { name: 'fix', edits: [{ path: 'calc.py', content }] };
    return { content: JSON.stringify(answer), usage };
  });
  const llm = loadLlmConfig({
    SHADOWBOX_LLM_BASE_URL: fake.url,
    SHADOWBOX_LLM_MODEL: 'fixer',
    SHADOWBOX_LLM_PRICE_INPUT_PER_MTOK: '2',
    SHADOWBOX_LLM_PRICE_OUTPUT_PER_MTOK: '8',
  });
  scratch = await openScratchRuntime('sbx-eval-server-rt-', { llm, taskConcurrency: 2 });
  reviewer = await userIn(scratch.runtime.db, 'rita', 'reviewer');
});

afterAll(async () => {
  await scratch.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

/** The service as runtime.ts builds it, with the scratch directory's repositories allowed. */
function service(): EvalRunService {
  const { runtime } = scratch;
  return new EvalRunService({
    dataDir: scratch.dataDir,
    model: 'fixer',
    localRepoRoots: [path.join(dir, 'repos')],
    attempts: (o) =>
      runtimeAttempts({
        ...o,
        runtime,
        gitPolicy: defaultGitUrlPolicy,
        cwd: '/',
        pollMs: 200,
      }),
    loadOwner: async (id) => {
      const person = await loadPerson(runtime.db, id);
      return person === null ? null : { kind: 'user', person };
    },
  });
}

async function progressUntil(
  evals: EvalRunService,
  runId: string,
  done: (p: EvalRunProgress) => boolean,
): Promise<EvalRunProgress[]> {
  const seen: EvalRunProgress[] = [];
  const deadline = Date.now() + 240_000;
  for (;;) {
    const run = (await evals.list(reviewer)).runs.find((r) => r.runId === runId);
    if (run === undefined) throw new Error(`run ${runId} is not listed`);
    seen.push(run);
    if (done(run)) return seen;
    if (Date.now() > deadline) throw new Error(`run ${runId} is still ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('eval runs on the server', () => {
  it('starts a run and reports its progress to the end: pass@1 = 0.5, with spend', async () => {
    const evals = service();
    const start = { set, setName: 'calc.jsonl', k: 1, parallel: 2, maxIterations: 1 };
    const started = await evals.start(start, reviewer);
    const seen = await progressUntil(evals, started.runId, (p) => p.state !== 'running');
    const last = seen.at(-1);
    expect(last, JSON.stringify(seen)).toMatchObject({
      state: 'done',
      error: null,
      instances: 2,
      instancesDone: 2,
      attemptsDone: 2,
      resolved: 1,
      tokens: 2000,
    });
    expect(last?.costUsd).toBeCloseTo(2 * 0.0026, 9);
    const detail = await evals.get(started.runId, reviewer);
    expect(detail.summary).toMatchObject({ 'pass@1': 0.5, resolved: 1 });
    expect(detail.rows.map((r) => [r.instanceId, r.c])).toEqual([
      ['calc__mean', 1],
      ['calc__subtract', 0],
    ]);
    // The record is the server's, and the runtime's own service reads it too.
    expect((await readRunFile(evalRunFiles(scratch.dataDir, started.runId).run))?.summary).toEqual(
      detail.summary,
    );
    const listed = await scratch.runtime.evals.list(reviewer);
    expect(listed.runs.map((r) => r.runId)).toContain(started.runId);
    // The attempts are the reviewer's eval tasks.
    const tasks = await scratch.runtime.tasks.listTasks(reviewer, { scope: 'evals' });
    expect(tasks.tasks).toHaveLength(2);
  });

  it('resumes a run stopped with its tasks made, making and fixing each task once', async () => {
    const asked = fake.requests.length;
    const first = service();
    const start = { set, setName: 'again.jsonl', k: 1, parallel: 2, maxIterations: 1 };
    const { runId } = await first.start(start, reviewer);
    const file = evalRunFiles(scratch.dataDir, runId).run;
    // Stop once both tasks exist, as a server would at a restart.
    for (let i = 0; i < 600; i += 1) {
      const run = await readRunFile(file);
      if (run?.instances.every((x) => x.attempts.length === 1) === true) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await first.close();
    const stopped = await readRunFile(file);
    const taskIds = stopped?.instances.map((x) => x.attempts[0]?.taskId);
    expect(taskIds?.every((id) => typeof id === 'string')).toBe(true);

    const second = service();
    expect(await second.resumeUnfinished()).toEqual([runId]);
    const seen = await progressUntil(second, runId, (p) => p.state !== 'running');
    expect(seen.at(-1), JSON.stringify(seen.at(-1))).toMatchObject({
      state: 'done',
      attemptsDone: 2,
      resolved: 1,
    });
    const done = await readRunFile(file);
    expect(done?.instances.map((x) => x.attempts[0]?.taskId)).toEqual(taskIds);
    // One model request per task: nothing was made or fixed twice.
    expect(fake.requests.length - asked).toBe(2);
    expect(
      (await scratch.runtime.tasks.listTasks(reviewer, { scope: 'evals' })).tasks,
    ).toHaveLength(4);
  });
});
