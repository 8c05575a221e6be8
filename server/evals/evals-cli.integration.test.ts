import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { memoryIo } from '../cli/test-support/memory-io';
import { requestText, startFakeOpenAi, type FakeOpenAi } from '../test-support/fake-openai';
import { testGit } from '../test-support/git-fixtures';
import { parseEvalSet, type EvalInstance } from './eval-instance';
import { runFileSchema } from './run/run-file';

// The whole loop through the CLI, as a team would run it: a repository with two fix commits (each
// with its test) is mined into a set; two models run it against a local OpenAI-compatible server:
// "hasty" answers the right fix for one instance and a wrong one for the other (pass@1 = 0.5),
// "careful" fixes both at a higher price; the report puts them side by side.

const calc = (subtract: string, mean: string) =>
  `def add(a, b):\n    return a + b\n\n\ndef subtract(a, b):\n    return ${subtract}\n\n\ndef mean(values):\n    return ${mean}\n`;
const buggy = calc('a + b', 'sum(values) // len(values)');
const meanFixed = calc('a + b', 'sum(values) / len(values)');
const bothFixed = calc('a - b', 'sum(values) / len(values)');
const tests = (...names: ('mean' | 'subtract')[]) =>
  [
    'from calc import add, mean, subtract',
    '',
    '',
    'def test_add():',
    '    assert add(2, 3) == 5',
    ...(names.includes('mean')
      ? ['', '', 'def test_mean():', '    assert mean([1, 2]) == 1.5']
      : []),
    ...(names.includes('subtract')
      ? ['', '', 'def test_subtract():', '    assert subtract(5, 3) == 2']
      : []),
    '',
  ].join('\n');

let root: string;
let fake: FakeOpenAi;
let env: Record<string, string>;
let set: EvalInstance[];

async function cli(args: string[], stdin = '') {
  const io = { ...memoryIo({ stdin, cwd: root }), env };
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

async function commit(repo: string, message: string, files: Record<string, string>) {
  for (const [name, content] of Object.entries(files)) {
    await writeFile(path.join(repo, name), content);
  }
  await testGit(repo, ['add', '-A']);
  await testGit(repo, ['commit', '-q', '-m', message]);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'sbx-evals-cli-'));
  const repo = path.join(root, 'calc');
  await testGit(root, ['init', '-q', '-b', 'main', repo]);
  await commit(repo, 'calc', { 'calc.py': buggy, 'test_calc.py': tests() });
  await commit(repo, 'mean floors: mean([1, 2]) is 1, not 1.5', {
    'calc.py': meanFixed,
    'test_calc.py': tests('mean'),
  });
  await commit(repo, 'subtract adds', {
    'calc.py': bothFixed,
    'test_calc.py': tests('mean', 'subtract'),
  });

  // The prompt names the failing test: the answer is chosen by it and by the model asked.
  fake = await startFakeOpenAi((request) => {
    const careful = request.body.model === 'careful';
    const subtract = requestText(request).includes('test_subtract');
    // At the subtract instance's base, mean is already fixed; a wrong fix multiplies.
    const content = !subtract
      ? meanFixed
      : careful
        ? bothFixed
        : calc('a * b', 'sum(values) / len(values)');
    return {
      content: JSON.stringify({ name: 'fix', edits: [{ path: 'calc.py', content }] }),
      usage: careful
        ? { prompt_tokens: 1800, completion_tokens: 400 }
        : { prompt_tokens: 900, completion_tokens: 100 },
    };
  });
  env = {
    SHADOWBOX_DATA_DIR: path.join(root, 'data'),
    SHADOWBOX_LLM_BASE_URL: fake.url,
    SHADOWBOX_LLM_MODEL: 'hasty',
    SHADOWBOX_LLM_PRICE_INPUT_PER_MTOK: '2',
    SHADOWBOX_LLM_PRICE_OUTPUT_PER_MTOK: '8',
  };
}, 60_000);

afterAll(async () => {
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

describe('shadowbox eval, build to report', () => {
  it('mines the two fix commits of the history into a set', async () => {
    const built = await cli(['eval', 'build', '--repo', 'calc', '--out', 'set.jsonl']);
    expect(built.code, built.err).toBe(0);
    set = parseEvalSet(await readFile(path.join(root, 'set.jsonl'), 'utf8'));
    expect(
      set.map(({ problem_statement, FAIL_TO_PASS, PASS_TO_PASS }) => ({
        problem_statement,
        FAIL_TO_PASS,
        PASS_TO_PASS,
      })),
    ).toEqual([
      {
        problem_statement: 'subtract adds',
        FAIL_TO_PASS: ['test_calc.py::test_subtract'],
        PASS_TO_PASS: ['test_calc.py::test_add', 'test_calc.py::test_mean'],
      },
      {
        problem_statement: 'mean floors: mean([1, 2]) is 1, not 1.5',
        FAIL_TO_PASS: ['test_calc.py::test_mean'],
        PASS_TO_PASS: ['test_calc.py::test_add'],
      },
    ]);
  });

  it('runs it with two models: one resolves half the set, the other all of it, each with its spend', async () => {
    expect(
      (await cli(['user', 'add', 'ada', '--role', 'reviewer'], 'eval-password-1\n')).code,
    ).toBe(0);
    const runOf = async (model: string) => {
      const out = `${model}.json`;
      const ran = await cli([
        'eval',
        'run',
        'set.jsonl',
        '--fixer',
        'llm',
        '--model',
        model,
        '-k',
        '1',
        '--max-iterations',
        '1',
        '--as',
        'ada',
        '--out',
        out,
      ]);
      expect(ran.code, ran.err).toBe(0);
      return runFileSchema.parse(JSON.parse(await readFile(path.join(root, out), 'utf8')));
    };
    const hasty = await runOf('hasty');
    expect(hasty.summary).toMatchObject({
      instances: 2,
      attempts: 2,
      resolved: 1,
      'pass@1': 0.5,
      'pass@k': 0.5,
      'pass^k': 0.5,
      tokens: 2000,
    });
    expect(hasty.summary.costUsd).toBeCloseTo(2 * 0.0026, 9);
    const careful = await runOf('careful');
    expect(careful.summary, JSON.stringify(careful.instances)).toMatchObject({
      resolved: 2,
      'pass@1': 1,
      tokens: 4400,
    });

    const reported = await cli([
      'eval',
      'report',
      'hasty.json',
      'careful.json',
      '--html',
      'r.html',
    ]);
    expect(reported.code, reported.err).toBe(0);
    const subtract = set[0]?.instance_id ?? '';
    expect(reported.out).toContain(subtract);
    const html = await readFile(path.join(root, 'r.html'), 'utf8');
    expect(html).toContain('hasty');
    expect(html).toContain('careful');
  });
});
