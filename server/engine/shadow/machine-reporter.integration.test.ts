// Regression tests (#23 item 1): runners whose console names no tests (`pytest -q`, plain
// `pytest`, `python -m unittest`, jest's and vitest's default reporters with several files, plain
// `go test ./...`) next to a pre-existing failure. Before, the right fix could never win ("failures
// remain and the runner names no tests"); now Shadowbox adds a machine-readable reporter to the
// command, reads the run by test id, and the fix wins, while the output shown stays the user's.
import { cp, mkdir, mkdtemp, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { asWorkspace, writeProject } from '../../test-support/inline-projects';
import { createShadowRunner, type ShadowRunner } from './create-shadow-runner';
import type { Hypothesis } from './hypothesis';
import type { HypothesisResult } from './shadow-report';

const hypothesis = (name: string, edits: Record<string, string> = {}): Hypothesis => ({
  name,
  edits: Object.entries(edits).map(([p, content]) => ({ path: p, content })),
  delete: [],
});

let runner: ShadowRunner;

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-reporter-data-'));
  runner = await createShadowRunner({ dataDir, mode: 'overlay' });
});

interface Case {
  readonly files: Record<string, string>;
  readonly command: string[];
  readonly env?: Record<string, string>;
  /** The right fix, the wrong one (fixes the bug, breaks a passing test). */
  readonly fix: Record<string, string>;
  readonly wrong: Record<string, string>;
  /** The id of the test the fix fixes, and of the environmental failure. */
  readonly fixed: string;
  readonly environmental: string;
  readonly readAs: RegExp;
}

/** A baseline, then the fix, the wrong fix and a no-op against it: the fix must win by test id. */
async function judge(workspace: string, c: Case): Promise<Map<string, HypothesisResult>> {
  const common = { workspace, command: c.command, env: c.env ?? {}, timeoutMs: 120_000 };
  const baseline = await runner.run({ ...common, hypotheses: [hypothesis('baseline')] });
  const reference = baseline.hypotheses[0];
  if (reference === undefined) throw new Error('no baseline');
  expect(reference.readAs, reference.outputTail.slice(-3000)).toMatch(c.readAs);
  expect(reference.cases.filter((t) => t.status === 'failed').map((t) => t.id)).toEqual(
    expect.arrayContaining([c.fixed, c.environmental]),
  );
  const report = await runner.run({
    ...common,
    reference,
    hypotheses: [
      hypothesis('noop', { 'NOTES.txt': 'nothing\n' }),
      hypothesis('wrong', c.wrong),
      hypothesis('fix', c.fix),
    ],
  });
  const byName = new Map(report.hypotheses.map((h) => [h.name, h]));
  expect(report.winner, JSON.stringify(report.hypotheses, null, 1).slice(0, 4000)).toBe('fix');
  const fix = byName.get('fix');
  expect(fix?.tests?.basis).toBe('id');
  expect(fix?.tests?.fixed).toEqual([c.fixed]);
  expect(fix?.tests?.stillFailing).toEqual([c.environmental]);
  expect(fix?.readAs).toMatch(c.readAs);
  // The run's canaries were placed and came out right, read through the added reporter too.
  expect(fix?.canaries).toHaveProperty('failing');
  expect(fix?.tampered).toBeUndefined();
  expect(byName.get('wrong')?.disqualified).toMatch(/broke 1 test/);
  expect(byName.get('noop')?.disqualified).toBe('it fixed no failing test');
  return byName;
}

const pythonFiles = {
  'calc.py': 'def add(a, b):\n    return a - b\n\ndef mul(a, b):\n    return a * b\n',
  'test_calc.py': [
    'import os, unittest',
    'from calc import add, mul',
    'class TestCalc(unittest.TestCase):',
    '    def test_add(self):\n        self.assertEqual(add(2, 3), 5)',
    '    def test_mul(self):\n        self.assertEqual(mul(2, 3), 6)',
    '    def test_env(self):\n        self.assertEqual(os.environ.get("NEEDS_A_SERVICE"), "up")',
    '',
  ].join('\n'),
};
const pythonFix = {
  'calc.py': 'def add(a, b):\n    return a + b\n\ndef mul(a, b):\n    return a * b\n',
};
const pythonWrong = {
  'calc.py': 'def add(a, b):\n    return a + b\n\ndef mul(a, b):\n    return a + b\n',
};

describe('a right fix next to a pre-existing failure wins by test id', () => {
  it.each([
    ['pytest -q', ['python3', '-m', 'pytest', '-q']],
    ['plain pytest', ['python3', '-m', 'pytest']],
  ])(
    '%s',
    async (_label, command) => {
      const workspace = await writeProject('sbx-rp-pytest-', pythonFiles);
      const results = await judge(workspace, {
        files: pythonFiles,
        command,
        fix: pythonFix,
        wrong: pythonWrong,
        fixed: 'test_calc.py::TestCalc::test_add',
        environmental: 'test_calc.py::TestCalc::test_env',
        readAs: /^by test id, from a JUnit report added to the command$/,
      });
      // The output shown is the user's own: `-q` stays quiet, no per-test lines (the counts
      // include the run's two canaries).
      expect(results.get('fix')?.outputTail).toMatch(/2 failed, 3 passed/);
      expect(results.get('fix')?.outputTail).not.toMatch(/PASSED/);
    },
    120_000,
  );

  it('python -m unittest', async () => {
    const workspace = await writeProject('sbx-rp-unittest-', pythonFiles);
    const results = await judge(workspace, {
      files: pythonFiles,
      command: ['python3', '-m', 'unittest'],
      fix: pythonFix,
      wrong: pythonWrong,
      fixed: 'test_calc.TestCalc.test_add',
      environmental: 'test_calc.TestCalc.test_env',
      readAs: /^by test id, from Shadowbox's unittest runner/,
    });
    expect(results.get('fix')?.outputTail).toMatch(/Ran 5 tests in .*\n\nFAILED \(failures=2\)/);
    expect(results.get('fix')?.outputTail).not.toMatch(/ \.\.\. ok/);
  }, 120_000);

  it('plain go test ./...', async () => {
    const files = {
      'go.mod': 'module example.com/calc\n\ngo 1.19\n',
      'calc.go':
        'package calc\n\nfunc Add(a, b int) int { return a - b }\n\nfunc Mul(a, b int) int { return a * b }\n',
      'calc_test.go': [
        'package calc',
        'import ("os"; "testing")',
        'func TestAdd(t *testing.T) { if Add(2, 3) != 5 { t.Fatal("add") } }',
        'func TestMul(t *testing.T) { if Mul(2, 3) != 6 { t.Fatal("mul") } }',
        'func TestEnv(t *testing.T) { if os.Getenv("NEEDS_A_SERVICE") != "up" { t.Fatal("env") } }',
        '',
      ].join('\n'),
    };
    const workspace = await writeProject('sbx-rp-go-', files);
    const results = await judge(workspace, {
      files,
      command: ['go', 'test', './...'],
      env: { GOFLAGS: '-mod=mod', GOPROXY: 'off' },
      fix: { 'calc.go': files['calc.go'].replace('a - b', 'a + b') },
      wrong: { 'calc.go': files['calc.go'].replace('a - b', 'a + b').replace('a * b', 'a + b') },
      fixed: 'example.com/calc.TestAdd',
      environmental: 'example.com/calc.TestEnv',
      readAs: /^by test id, from go test -json \(added to the command\)$/,
    });
    // Shown as the text go test -json encodes, never as its events.
    const tail = results.get('fix')?.outputTail ?? '';
    expect(tail).toMatch(/--- FAIL: TestEnv/);
    expect(tail).not.toContain('"Action"');
  }, 180_000);
});

describe('with a build step', () => {
  it('the reporter is added to the test command the build step runs', async () => {
    const workspace = await writeProject('sbx-rp-build-', pythonFiles);
    const report = await runner.run({
      workspace,
      command: ['python3', '-m', 'pytest', '-q'],
      buildCommand: ['python3', '-c', 'pass'],
      timeoutMs: 120_000,
      hypotheses: [hypothesis('fix', pythonFix)],
    });
    expect(report.hypotheses[0]).toMatchObject({
      readAs: 'by test id, from a JUnit report added to the command',
      buildFailed: false,
      failed: 1,
      passed: 2,
    });
  }, 120_000);
});

describe('a run in the workspace itself (a baseline)', () => {
  it('is read by test id and leaves no report behind', async () => {
    const workspace = await writeProject('sbx-rp-direct-', pythonFiles);
    const report = await runner.run({
      workspace,
      command: ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
      inWorkspace: true,
      timeoutMs: 120_000,
      hypotheses: [hypothesis('baseline')],
    });
    expect(report.hypotheses[0]?.readAs).toBe(
      'by test id, from a JUnit report added to the command',
    );
    expect(report.hypotheses[0]?.cases).toHaveLength(3);
    expect(await stat(path.join(workspace, '.shadowbox')).catch(() => null)).toBeNull();
  }, 120_000);
});

describe('where no report can be read back (upper layers on a tmpfs)', () => {
  it('pytest -q: the fix is inferred from the failing tests it names and wins; the wrong fix cannot', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-reporter-tmpfs-'));
    const tmpfs = await createShadowRunner({ dataDir, mode: 'overlay', tmpfsUpper: true });
    const workspace = await writeProject('sbx-rp-inferred-', pythonFiles);
    const common = { workspace, command: ['python3', '-m', 'pytest', '-q'], timeoutMs: 120_000 };
    const baseline = await tmpfs.run({ ...common, hypotheses: [hypothesis('baseline')] });
    const reference = baseline.hypotheses[0];
    if (reference === undefined) throw new Error('no baseline');
    expect(reference.readAs).toBe('by the failing tests it names and the totals, from the console');
    const report = await tmpfs.run({
      ...common,
      reference,
      hypotheses: [hypothesis('wrong', pythonWrong), hypothesis('fix', pythonFix)],
    });
    expect(report.winner).toBe('fix');
    const fix = report.hypotheses.find((h) => h.name === 'fix');
    expect(fix?.tests).toMatchObject({
      basis: 'inferred',
      fixed: ['test_calc.py::TestCalc::test_add'],
      stillFailing: ['test_calc.py::TestCalc::test_env'],
    });
    const wrong = report.hypotheses.find((h) => h.name === 'wrong');
    expect(wrong?.tests?.basis).toBe('totals');
    expect(wrong?.tests?.fixed).toEqual([]);
    expect(wrong?.disqualified).toMatch(/names no tests/);
  }, 120_000);
});

// jest and vitest are installed once per machine (npm registry), into a cache outside the repo.
const jsRunners = path.join(os.tmpdir(), 'sbx-js-runners-jest29-vitest4');

async function jsRunnersInstalled(): Promise<string> {
  const done = path.join(jsRunners, 'node_modules', '.installed');
  if (await stat(done).catch(() => null)) return path.join(jsRunners, 'node_modules');
  await mkdir(jsRunners, { recursive: true });
  await writeFile(path.join(jsRunners, 'package.json'), '{"name":"runners","private":true}\n');
  await execa(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      'jest@29',
      'vitest@4',
    ],
    { cwd: jsRunners },
  );
  await writeFile(done, '');
  return path.join(jsRunners, 'node_modules');
}

const jsFiles = (runner: 'jest' | 'vitest'): Record<string, string> => {
  const header = runner === 'vitest' ? "import { test, expect } from 'vitest';\n" : '';
  const lib = runner === 'vitest' ? 'import { add, mul } from' : 'const { add, mul } = require(';
  const end = runner === 'vitest' ? ';' : ');';
  return {
    'package.json': JSON.stringify({
      name: 'calc',
      private: true,
      ...(runner === 'vitest' ? { type: 'module' } : {}),
    }),
    'calc.js':
      runner === 'vitest'
        ? 'export const add = (a, b) => a - b;\nexport const mul = (a, b) => a * b;\n'
        : 'exports.add = (a, b) => a - b;\nexports.mul = (a, b) => a * b;\n',
    // Three files, one passing: the default reporter then names only the failing files' tests.
    'test/add.test.js': `${header}${lib} '../calc.js'${end}\ntest('adds', () => { expect(add(2, 3)).toBe(5); });\n`,
    'test/mul.test.js': `${header}${lib} '../calc.js'${end}\ntest('multiplies', () => { expect(mul(2, 3)).toBe(6); });\n`,
    'test/env.test.js': `${header}test('needs a service', () => { expect(process.env.NEEDS_A_SERVICE).toBe('up'); });\n`,
  };
};

describe.each(['jest', 'vitest'] as const)('%s default reporter', (name) => {
  it('a right fix next to a pre-existing failure wins by test id', async () => {
    const modules = await jsRunnersInstalled();
    const files = jsFiles(name);
    const workspace = await writeProject(`sbx-rp-${name}-`, files);
    await cp(modules, path.join(workspace, 'node_modules'), {
      recursive: true,
      verbatimSymlinks: true,
    });
    await asWorkspace(workspace);
    const fixedCalc = files['calc.js']?.replace('a - b', 'a + b') ?? '';
    const sep = name === 'jest' ? ' › ' : ' > ';
    await judge(workspace, {
      files,
      command: [name, ...(name === 'vitest' ? ['run'] : [])],
      fix: { 'calc.js': fixedCalc },
      wrong: { 'calc.js': fixedCalc.replace('a * b', 'a + b') },
      fixed: `test/add.test.js${sep}adds`,
      environmental: `test/env.test.js${sep}needs a service`,
      readAs: new RegExp(`^by test id, from ${name}'s JSON report`),
    });
  }, 240_000);
});
