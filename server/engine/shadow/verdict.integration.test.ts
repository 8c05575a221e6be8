// Verdicts on real runners in real sandboxes: the false greens and pre-existing failures that
// real projects showed, each judged against a baseline recorded the same way the loop records it.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { createShadowRunner, type ShadowRunner } from './create-shadow-runner';
import { byName, hypothesis, judge } from './test-support/judge';
import { asWorkspace, writeProject } from '../../test-support/inline-projects';

let runner: ShadowRunner;

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-verdict-'));
  runner = await createShadowRunner({ dataDir, mode: 'overlay' });
  expect(runner.mode).toBe('overlay');
});

describe('no false greens', () => {
  it('ctest with no tests configured exits 0 but is never a pass', async () => {
    const dir = await writeProject('sbx-ctest0-', {
      'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.13)\nproject(empty C)\n',
    });
    await execa('cmake', ['-S', '.', '-B', 'build'], { cwd: dir });
    await asWorkspace(dir); // setup's outputs are the runs' identity's, as in a task
    const report = await runner.run({
      workspace: dir,
      command: ['ctest', '--test-dir', 'build'],
      hypotheses: [hypothesis('anything', { 'notes.txt': 'x\n' })],
    });
    const run = byName(report, 'anything');
    expect(run.exitCode).toBe(0);
    expect(run.disqualified).toBe('the run ran no tests');
    expect(report.winner).toBeNull();
  });

  it('python3 -m unittest discovering nothing (Ran 0 tests, OK, exit 0) is never a pass', async () => {
    const dir = await writeProject('sbx-ut0-', { 'calc.py': 'def add(a, b):\n    return a + b\n' });
    const report = await runner.run({
      workspace: dir,
      command: ['python3', '-m', 'unittest'],
      hypotheses: [hypothesis('anything', { 'calc.py': 'def add(a, b):\n    return b + a\n' })],
    });
    const run = byName(report, 'anything');
    expect(run.exitCode).toBe(0);
    expect(run.disqualified).toBe('the run ran no tests');
    expect(report.winner).toBeNull();
  });
});

describe('against the baseline', () => {
  const envTest = [
    'def test_needs_the_package_installed():',
    '    import shadowbox_not_installed_pkg  # noqa: F401',
    '',
  ].join('\n');
  const pytestProject = {
    'calc.py': 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n',
    'test_calc.py': [
      'from calc import add, mul',
      '',
      'def test_add():',
      '    assert add(2, 3) == 5',
      '',
      'def test_add_zero():',
      '    assert add(0, 4) == 4',
      '',
      'def test_mul():',
      '    assert mul(2, 3) == 6',
      '',
    ].join('\n'),
    'test_env.py': envTest,
  };

  it('a fix that leaves an environmental failure failing wins; the wrong fix does not', async () => {
    const dir = await writeProject('sbx-env-', pytestProject);
    const { baseline, report } = await judge(
      runner,
      { workspace: dir, command: ['python3', '-m', 'pytest', '-v', '-p', 'no:cacheprovider'] },
      [
        hypothesis('wrong', {
          'calc.py': 'def add(a, b):\n    return a * b\n\n\ndef mul(a, b):\n    return a * b\n',
        }),
        hypothesis('right', {
          'calc.py': 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n',
        }),
      ],
    );
    expect(baseline.failed).toBe(3);
    expect(report.winner).toBe('right');
    const right = byName(report, 'right');
    expect(right.tests?.fixed).toHaveLength(2);
    expect(right.tests?.stillFailing).toEqual([
      expect.stringContaining('test_needs_the_package_installed'),
    ]);
    expect(right.tests?.broken).toEqual([]);
    expect(byName(report, 'wrong').disqualified).toMatch(/fixed no failing test|broke/);
  });

  it('a pytest.ini that deselects the failing test loses a baseline test and cannot win', async () => {
    const dir = await writeProject('sbx-deselect-', pytestProject);
    const { report } = await judge(
      runner,
      { workspace: dir, command: ['python3', '-m', 'pytest', '-v', '-p', 'no:cacheprovider'] },
      [
        hypothesis('deselect', {
          'pytest.ini':
            '[pytest]\naddopts = --deselect test_calc.py::test_add --deselect test_calc.py::test_add_zero\n',
        }),
      ],
    );
    const run = byName(report, 'deselect');
    expect(run.tests?.missing).toHaveLength(2);
    expect(run.disqualified).toBe('2 tests that ran before did not run');
    expect(report.winner).toBeNull();
  });

  it('CMake + ctest with a build step: the fix wins, a compile error is a build failure ranked last', async () => {
    const calc = (body: string): string =>
      `int add(int a, int b) { ${body} }\nint neg(int a) { return -a; }\n`;
    const dir = await writeProject('sbx-cmake-', {
      'CMakeLists.txt': [
        'cmake_minimum_required(VERSION 3.13)',
        'project(calc C)',
        'enable_testing()',
        'add_library(calc calc.c)',
        'add_executable(test_add test_add.c)',
        'target_link_libraries(test_add calc)',
        'add_test(NAME adds COMMAND test_add)',
        'add_executable(test_neg test_neg.c)',
        'target_link_libraries(test_neg calc)',
        'add_test(NAME negates COMMAND test_neg)',
        '',
      ].join('\n'),
      'calc.c': calc('return a - b;'),
      'test_add.c': 'int add(int, int);\nint main(void) { return add(2, 3) == 5 ? 0 : 1; }\n',
      'test_neg.c': 'int neg(int);\nint main(void) { return neg(2) == -2 ? 0 : 1; }\n',
    });
    // What setup does for a CMake project: configure into build/ (the build step builds).
    await execa('cmake', ['-S', '.', '-B', 'build'], { cwd: dir });
    await asWorkspace(dir);
    const { baseline, report } = await judge(
      runner,
      {
        workspace: dir,
        command: ['ctest', '--test-dir', 'build'],
        buildCommand: ['cmake', '--build', 'build'],
      },
      [
        hypothesis('broken', { 'calc.c': calc('return a + ;') }),
        hypothesis('wrong', { 'calc.c': calc('return a * b;') }),
        hypothesis('right', { 'calc.c': calc('return a + b;') }),
      ],
    );
    expect(baseline).toMatchObject({ passed: 1, failed: 1, buildFailed: false });
    expect(report.winner).toBe('right');
    expect(report.hypotheses.map((h) => h.name)).toEqual(['right', 'wrong', 'broken']);
    expect(byName(report, 'broken')).toMatchObject({
      buildFailed: true,
      disqualified: 'the build failed',
    });
    expect(byName(report, 'right').tests?.fixed).toEqual([expect.stringContaining('adds')]);
  });

  it('names every test of a suite whose output is far larger than the kept tail', async () => {
    const dir = await writeProject('sbx-large-', {
      'test_many.py': [
        'import pytest',
        '',
        '@pytest.mark.parametrize("n", range(3000))',
        'def test_a_test_with_a_rather_long_name_to_fill_the_output(n):',
        '    assert n != 1234',
        '',
      ].join('\n'),
    });
    const report = await runner.run({
      workspace: dir,
      command: ['python3', '-m', 'pytest', '-v'],
      hypotheses: [hypothesis('baseline')],
    });
    const baseline = byName(report, 'baseline');
    expect(baseline.outputTail.length).toBeLessThan(70 * 1024);
    expect(baseline.cases).toHaveLength(3000);
    expect(baseline.cases.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual([
      'test_many.py::test_a_test_with_a_rather_long_name_to_fill_the_output[1234]',
    ]);
  });
});
