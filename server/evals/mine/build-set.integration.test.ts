import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShadowPort } from '../../engine/loop';
import { testGit } from '../../test-support/git-fixtures';
import { parseEvalSet } from '../eval-instance';
import { buildSet, type BuildSetResult } from './build-set';
import { createMiningEngine } from './mining-engine';

// A repository the test writes itself: a pytest project (no manifest, so setup installs nothing
// and no install script runs anywhere) with a short history of fixes, mined for real: the engine's
// clone of the path, its setup detection, its sandboxed shadows.

const calc = {
  add: 'def add(a, b):\n    return a + b\n',
  sub: (body: string) => `\n\ndef sub(a, b):\n    return ${body}\n`,
  mul: (body: string) => `\n\ndef mul(a, b):\n    return ${body}\n`,
  neg: (body: string) => `\n\ndef neg(x):\n    return ${body}\n`,
};
const calcPy = (sub: string, mul: string, neg: string, extra = ''): string =>
  calc.add + calc.sub(sub) + calc.mul(mul) + calc.neg(neg) + extra;

const testAdd = 'import os\n\nimport calc\n\n\ndef test_add():\n    assert calc.add(2, 3) == 5\n';
const testSub = '\n\ndef test_sub():\n    assert calc.sub(5, 3) == 2\n';
// Flaky: its outcome depends on the world outside the tree (a variable that differs between two
// runs of the same tree here, as a clock, a port or a network would elsewhere).
const testMul =
  '\n\ndef test_mul():\n    assert calc.mul(2, 3) == 6\n    assert os.environ.get("FIXTURE_ROUND", "0") == "0"\n';
const testDiv = '\n\ndef test_div():\n    assert calc.div(6, 3) == 2\n';
const testNeg = 'import calc\n\n\ndef test_neg():\n    assert calc.neg(2) == -2\n';

let root: string;
let work: string;
const commits: Record<string, string> = {};
let result: BuildSetResult;
let set: ReturnType<typeof parseEvalSet>;
let log: string;
const progress: string[] = [];

async function commit(name: string, files: Record<string, string>, message: string) {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(work, file)), { recursive: true });
    await writeFile(path.join(work, file), content);
  }
  await testGit(work, ['add', '-A']);
  await testGit(work, ['commit', '-q', '-m', message]);
  commits[name] = await testGit(work, ['rev-parse', 'HEAD']);
}

const short = (name: string): string => (commits[name] ?? '').slice(0, 7);

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'sbx-eval-build-'));
  work = path.join(root, 'calc');
  await mkdir(work);
  await testGit(work, ['init', '-q', '-b', 'main']);
  await commit(
    'init',
    { 'calc.py': calcPy('a + b', 'a + b', 'x'), 'test_calc.py': testAdd },
    'Add calc',
  );
  await commit(
    'sub',
    { 'calc.py': calcPy('a - b', 'a + b', 'x'), 'test_calc.py': testAdd + testSub },
    'Fix sub: it added\n\nsub(5, 3) gave 8.',
  );
  await commit(
    'mul',
    { 'calc.py': calcPy('a - b', 'a * b', 'x'), 'test_calc.py': testAdd + testSub + testMul },
    'Fix mul: it added',
  );
  await commit('docs', { 'README.md': '# calc\n' }, 'Document calc');
  await commit(
    'neg',
    { 'calc.py': calcPy('a - b', 'a * b', '-x'), 'tests/test_neg.py': testNeg },
    'Fix neg: it returned its argument',
  );
  await commit(
    'div',
    {
      // A syntax error: nothing imports calc, so no test runs with this commit.
      'calc.py': calcPy('a - b', 'a * b', '-x', '\n\ndef div(a, b)\n    return a / b\n'),
      'test_calc.py': testAdd + testSub + testMul + testDiv,
    },
    'Add div',
  );

  const dataDir = path.join(root, 'data');
  const engine = await createMiningEngine({ root: path.join(dataDir, 'mine'), dataDir });
  // Each shadow run of the miner is one round: the variable alternates between them.
  let rounds = 0;
  const shadows: ShadowPort = {
    mode: engine.shadows.mode,
    fallbackReason: engine.shadows.fallbackReason,
    run: (request, events) =>
      engine.shadows.run(
        { ...request, env: { ...request.env, FIXTURE_ROUND: String(rounds++ % 2) } },
        events,
      ),
  };
  const out = path.join(root, 'set.jsonl');
  result = await buildSet({
    source: { kind: 'repo', path: work },
    since: null,
    max: null,
    out,
    log: `${out}.log`,
    testCommand: null,
    engine: { ...engine, shadows },
    progress: (line) => progress.push(line),
  });
  await engine.runner.settled();
  set = parseEvalSet(await readFile(out, 'utf8'));
  log = await readFile(`${out}.log`, 'utf8');
}, 600_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('eval build on a history of fixes', () => {
  it('keeps exactly the two good fixes, newest first, with their test ids', () => {
    expect(result).toMatchObject({ commits: 6, candidates: 4, kept: 2, setupError: null });
    expect(set.map((i) => i.instance_id)).toEqual([
      `calc__${short('docs')}-${short('neg')}`,
      `calc__${short('init')}-${short('sub')}`,
    ]);
    const [neg, sub] = set;
    expect(neg).toMatchObject({
      repo: work,
      base_commit: commits.docs,
      problem_statement: 'Fix neg: it returned its argument',
      FAIL_TO_PASS: ['tests/test_neg.py::test_neg'],
      // test_mul is flaky in every tree since its commit: in neither list.
      PASS_TO_PASS: ['test_calc.py::test_add', 'test_calc.py::test_sub'],
      test_command: ['python3', '-m', 'pytest', '-q'],
      created_at: '2020-01-01T00:00:00.000Z',
    });
    expect(sub).toMatchObject({
      base_commit: commits.init,
      problem_statement: 'Fix sub: it added\n\nsub(5, 3) gave 8.',
      FAIL_TO_PASS: ['test_calc.py::test_sub'],
      PASS_TO_PASS: ['test_calc.py::test_add'],
    });
  });

  it('splits each commit into its test patch and its fix', () => {
    const [neg, sub] = set;
    expect(neg?.test_patch).toContain('+++ b/tests/test_neg.py');
    expect(neg?.test_patch).not.toContain('calc.py');
    expect(neg?.patch).toContain('+++ b/calc.py');
    expect(neg?.patch).toContain('+    return -x');
    expect(neg?.patch).not.toContain('test_neg');
    expect(sub?.test_patch).toContain('+def test_sub():');
    expect(sub?.patch).toContain('+    return a - b');
  });

  it('names why every other commit was left out in the log and on stderr', () => {
    expect(log).toMatch(
      new RegExp(`${short('div')} left out: does not build with the fix: no test ran`),
    );
    expect(log).toMatch(new RegExp(`${short('mul')} left out: flaky test_calc.py::test_mul`));
    expect(log).toMatch(new RegExp(`${short('docs')} not a candidate: changes no test file`));
    expect(log).toMatch(new RegExp(`${short('init')} not a candidate: no parent`));
    expect(log).toMatch(
      new RegExp(`${short('neg')} kept: 1 fail→pass, 2 pass→pass; flaky, in neither list`),
    );
    expect(progress).toContain(`[3/4] ${short('mul')} left out: flaky test_calc.py::test_mul`);
    expect(progress.filter((line) => /^\[\d\/4\]/.test(line))).toHaveLength(4);
  });

  it('leaves the mined repository as it was and no temporary set behind', async () => {
    expect(await testGit(work, ['status', '--porcelain'])).toBe('');
    expect(await testGit(work, ['rev-parse', 'HEAD'])).toBe(commits.div);
    expect(await testGit(work, ['for-each-ref', '--format=%(refname)'])).toBe('refs/heads/main');
    expect((await readdir(root)).sort()).toEqual(['calc', 'data', 'set.jsonl', 'set.jsonl.log']);
  });
});
