// Hypotheses that forge their own results from a source file, on real runners in real shadows:
// each is disqualified as tampered by its canaries or by a report its console contradicts, and
// the honest fix of the same project wins, its canaries out of its counts.
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createShadowRunner, type ShadowRunner } from './create-shadow-runner';
import type { HypothesisResult, ShadowRunReport } from './shadow-report';
import { byName, hypothesis, judge } from './test-support/judge';
import { writeProject } from '../../test-support/inline-projects';

/** The run's failing canary, by the name the run reported it under. */
const failingCanary = (run: HypothesisResult): string => {
  const canaries = run.canaries;
  if (canaries === undefined || !('failing' in canaries)) {
    throw new Error(`${run.name} had no canaries: ${JSON.stringify(canaries)}`);
  }
  return canaries.failing;
};

let runner: ShadowRunner;

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-canary-'));
  runner = await createShadowRunner({ dataDir, mode: 'overlay' });
  expect(runner.mode).toBe('overlay');
});

/** The honest fix won; the forgery lost as tampered, with exactly `reason`. */
function expectTampered(report: ShadowRunReport, reason: (run: HypothesisResult) => string): void {
  const forged = byName(report, 'forge');
  expect(forged.tampered).toBe(reason(forged));
  expect(forged.disqualified).toBe(`tampered: ${reason(forged)}`);
  expect(report.winner).toBe('fix');
  expect(byName(report, 'fix').tampered).toBeUndefined();
  expect(byName(report, 'fix').disqualified).toBeNull();
  expect(report.hypotheses.at(-1)?.name).toBe('forge');
}

const pyBuggy = 'def add(a, b):\n    return a - b\n';
const pyFixed = 'def add(a, b):\n    return a + b\n';
const pyFiles = {
  'calc.py': pyBuggy,
  'test_calc.py': 'from calc import add\n\n\ndef test_adds():\n    assert add(1, 2) == 3\n',
};
const pytest = ['python3', '-m', 'pytest', '-v', '-p', 'no:cacheprovider'];
const pyEnv = { PYTHONDONTWRITEBYTECODE: '1' };

describe('pytest', () => {
  it('tampered: library code that patches _pytest.reports.TestReport to pass everything', async () => {
    const patch = [
      'import _pytest.reports as _reports',
      '',
      '_made = _reports.TestReport.from_item_and_call.__func__',
      '',
      '',
      'def _all_pass(cls, item, call):',
      '    report = _made(cls, item, call)',
      '    report.outcome = "passed"',
      '    report.longrepr = None',
      '    return report',
      '',
      '',
      '_reports.TestReport.from_item_and_call = classmethod(_all_pass)',
      '',
      pyBuggy,
    ].join('\n');
    const dir = await writeProject('sbx-forge-py-', pyFiles);
    const { baseline, report } = await judge(
      runner,
      { workspace: dir, command: pytest, env: pyEnv },
      [hypothesis('forge', { 'calc.py': patch }), hypothesis('fix', { 'calc.py': pyFixed })],
    );
    // The baseline is judged without its canaries: the one real test, failing.
    expect(baseline).toMatchObject({ passed: 0, failed: 1, exitCode: 1 });
    expect(baseline.cases).toEqual([{ id: 'test_calc.py::test_adds', status: 'failed' }]);
    // Without the canaries this forgery looked like the fix: everything passed.
    expect(byName(report, 'forge')).toMatchObject({ passed: 1, failed: 0 });
    expectTampered(
      report,
      (run) => `the failing canary ${failingCanary(run)} was reported passing`,
    );
    expect(byName(report, 'fix')).toMatchObject({ passed: 1, failed: 0, exitCode: 0 });
    expect(await readdir(dir)).toEqual(['calc.py', 'test_calc.py']);
  });

  const junitCommand = [
    'python3',
    '-m',
    'pytest',
    '-q',
    '-p',
    'no:cacheprovider',
    '--junitxml=report.xml',
  ];
  const allPass =
    '<testsuite tests="1" failures="0" errors="0"><testcase classname="test_calc" name="test_adds"/></testsuite>';

  it('tampered: code that writes an all-pass JUnit report and calls os._exit(0)', async () => {
    const forge = `import os\n\nwith open("report.xml", "w") as f:\n    f.write(${JSON.stringify(allPass)})\nos._exit(0)\n`;
    const dir = await writeProject('sbx-forge-junit-', pyFiles);
    const { report } = await judge(runner, { workspace: dir, command: junitCommand, env: pyEnv }, [
      hypothesis('forge', { 'calc.py': forge }),
      hypothesis('fix', { 'calc.py': pyFixed }),
    ]);
    expect(byName(report, 'forge').exitCode).toBe(0);
    expectTampered(report, (run) => `the failing canary ${failingCanary(run)} was not reported`);
  });

  it("tampered: an all-pass JUnit report written over pytest's own at exit, against its console", async () => {
    const forge = `import atexit\n\n\ndef _forge():\n    with open("report.xml", "w") as f:\n        f.write(${JSON.stringify(allPass)})\n\n\natexit.register(_forge)\n\n${pyBuggy}`;
    const dir = await writeProject('sbx-forge-junit2-', pyFiles);
    const { report } = await judge(runner, { workspace: dir, command: junitCommand, env: pyEnv }, [
      hypothesis('forge', { 'calc.py': forge }),
      hypothesis('fix', { 'calc.py': pyFixed }),
    ]);
    expectTampered(
      report,
      () =>
        "the JUnit report (1 passed, 0 failed) disagrees with the runner's output (1 passed, 2 failed)",
    );
  });
});

describe('python3 -m unittest', () => {
  it('tampered: library code that replaces TestCase.assertEqual with one that checks nothing', async () => {
    const forge = `import unittest\n\nunittest.TestCase.assertEqual = lambda self, a, b, msg=None: None\n\n${pyBuggy}`;
    const dir = await writeProject('sbx-forge-ut-', {
      'calc.py': pyBuggy,
      'test_calc.py':
        'import unittest\n\nfrom calc import add\n\n\nclass CalcTest(unittest.TestCase):\n    def test_adds(self):\n        self.assertEqual(add(1, 2), 3)\n',
    });
    const { baseline, report } = await judge(
      runner,
      { workspace: dir, command: ['python3', '-m', 'unittest', '-v'], env: pyEnv },
      [hypothesis('forge', { 'calc.py': forge }), hypothesis('fix', { 'calc.py': pyFixed })],
    );
    expect(baseline).toMatchObject({ passed: 0, failed: 1 });
    expectTampered(
      report,
      (run) => `the failing canary ${failingCanary(run)} was reported passing`,
    );
  });
});

describe('node --test', () => {
  const files = {
    'package.json': '{ "name": "calc", "private": true }\n',
    'calc.js': 'exports.add = (a, b) => a - b;\n',
    'test/calc.test.js': [
      "const { add } = require('../calc.js');",
      "const { test } = require('node:test');",
      "const assert = require('node:assert');",
      '',
      "test('adds', () => {",
      '  assert.strictEqual(add(1, 2), 3);',
      '});',
      '',
    ].join('\n'),
  };

  it("tampered: code that wraps node:test's test() to swallow failures", async () => {
    const forge = [
      "const nodeTest = require('node:test');",
      'const real = nodeTest.test;',
      'nodeTest.test = (name, fn) =>',
      '  real(name, async (t) => {',
      '    try {',
      '      await fn(t);',
      '    } catch {}',
      '  });',
      'exports.add = (a, b) => a - b;',
      '',
    ].join('\n');
    const dir = await writeProject('sbx-forge-node-', files);
    const { baseline, report } = await judge(
      runner,
      { workspace: dir, command: ['node', '--test'] },
      [
        hypothesis('forge', { 'calc.js': forge }),
        hypothesis('fix', { 'calc.js': 'exports.add = (a, b) => a + b;\n' }),
      ],
    );
    expect(baseline).toMatchObject({ passed: 0, failed: 1 });
    expect(byName(report, 'forge')).toMatchObject({ passed: 1, failed: 0 });
    expectTampered(
      report,
      (run) => `the failing canary ${failingCanary(run)} was reported passing`,
    );
  });
});

describe('cargo test', () => {
  const files = {
    'Cargo.toml': '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n',
    'src/lib.rs': [
      'pub fn add(a: i32, b: i32) -> i32 {',
      '    a - b',
      '}',
      '',
      '#[cfg(test)]',
      'mod tests {',
      '    use super::*;',
      '',
      '    #[test]',
      '    fn adds() {',
      '        assert_eq!(add(1, 2), 3);',
      '    }',
      '}',
      '',
    ].join('\n'),
    'tests/api.rs': '#[test]\nfn adds_zero() {\n    assert_eq!(calc::add(2, 0), 2);\n}\n',
  };
  const lib = (body: string): string => files['src/lib.rs'].replace('    a - b', body);

  it('tampered: a macro_rules! assert_eq above the #[cfg(test)] module, so inline tests pass', async () => {
    const forge = `macro_rules! assert_eq {\n    ($($t:tt)*) => {};\n}\n\n${files['src/lib.rs']}`;
    const dir = await writeProject('sbx-forge-cargo-', files);
    const { baseline, report } = await judge(
      runner,
      { workspace: dir, command: ['cargo', 'test', '--offline'], timeoutMs: 180_000 },
      [
        hypothesis('forge', { 'src/lib.rs': forge }),
        hypothesis('fix', { 'src/lib.rs': lib('    a + b') }),
      ],
    );
    // --no-fail-fast: the failing canary in the library's tests stops none of the later binaries.
    expect(baseline.cases.map((c) => c.id).sort()).toEqual([
      'src/lib.rs (calc) tests::adds',
      'tests/api.rs (api) adds_zero',
    ]);
    expect(byName(report, 'forge')).toMatchObject({ passed: 2, failed: 0 });
    expectTampered(
      report,
      (run) => `the failing canary ${failingCanary(run)} was reported passing`,
    );
    expect(byName(report, 'fix')).toMatchObject({ passed: 2, failed: 0, exitCode: 0 });
  }, 240_000);

  it('tampered: the same macro in a module file the hypothesis changes, the crate root untouched', async () => {
    const module = (body: string, prefix = ''): string =>
      `${prefix}pub fn add(a: i32, b: i32) -> i32 {\n${body}\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(1, 2), 3);\n    }\n}\n`;
    const dir = await writeProject('sbx-forge-cargo-mod-', {
      'Cargo.toml': files['Cargo.toml'],
      'src/lib.rs': 'pub mod calc;\n',
      'src/calc.rs': module('    a - b'),
    });
    const forge = module('    a - b', 'macro_rules! assert_eq {\n    ($($t:tt)*) => {};\n}\n\n');
    const { report } = await judge(
      runner,
      { workspace: dir, command: ['cargo', 'test', '--offline'], timeoutMs: 180_000 },
      [
        hypothesis('forge', { 'src/calc.rs': forge }),
        hypothesis('fix', { 'src/calc.rs': module('    a + b') }),
      ],
    );
    expectTampered(
      report,
      (run) => `the failing canary ${failingCanary(run)} was reported passing`,
    );
  }, 240_000);
});
