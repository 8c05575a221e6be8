import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { pytestCalc, pytestFiles, writeProject } from '../../test-support/inline-projects';
import { snapshotTreeWithTimes } from '../../test-support/tree-snapshot';

const root = path.resolve(import.meta.dirname, '../../..');
const env = { SHADOWBOX_DATA_DIR: path.join(os.tmpdir(), 'sbx-cli-data') };
/** The installed command, as a user runs it from the project root. */
const npxShadowbox = (args: string[]) =>
  execa('npx', ['shadowbox', ...args], { cwd: root, reject: false, env });
/** The same entry point from any directory (npx would look for the package elsewhere). */
const shadowbox = (args: string[], cwd = root) =>
  execa(process.execPath, [path.join(root, 'bin/shadowbox.mjs'), ...args], {
    cwd,
    reject: false,
    env,
  });

const pytest = ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider'];

describe('npx shadowbox shadow-run', () => {
  it('prints the contract JSON, exits 0 with a winner and leaves the workspace untouched', async () => {
    const workspace = await writeProject('sbx-cli-', pytestFiles);
    const specDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-spec-'));
    await writeFile(path.join(specDir, 'fixed.py'), pytestCalc.fixed);
    await writeFile(
      path.join(specDir, 'spec.json'),
      JSON.stringify({
        hypotheses: [
          { name: 'baseline' },
          { name: 'plus', edits: [{ path: 'calc.py', file: 'fixed.py' }] },
          { name: 'mul', edits: [{ path: 'calc.py', content: pytestCalc.wrong }] },
        ],
      }),
    );
    const before = await snapshotTreeWithTimes(workspace);
    const result = await npxShadowbox([
      'shadow-run',
      path.join(specDir, 'spec.json'),
      '--workspace',
      workspace,
      '--json',
      '--',
      ...pytest,
    ]);
    expect(result.exitCode).toBe(0);
    const report = JSON.parse(result.stdout) as Record<string, unknown> & {
      hypotheses: Record<string, unknown>[];
    };
    expect(Object.keys(report).sort()).toEqual([
      'applied',
      'hypotheses',
      'mode',
      'winner',
      'winnerDiff',
    ]);
    expect(report).toMatchObject({ mode: 'overlay', winner: 'plus', applied: false });
    expect(report.winnerDiff).toContain('-    return a - b\n+    return a + b\n');
    expect(report.hypotheses.map((h) => h.name)).toEqual(['plus', 'baseline', 'mul']);
    expect(Object.keys(report.hypotheses[0]!).sort()).toEqual(
      [
        'buildFailed',
        'canaries',
        'cases',
        'changedLines',
        'disqualified',
        'durationMs',
        'error',
        'exitCode',
        'failed',
        'name',
        'outputTail',
        'parsed',
        'passed',
        'rank',
        'readAs',
        'signal',
        'skipped',
        'tests',
        'timedOut',
      ].sort(),
    );
    expect(report.hypotheses[0]).toMatchObject({
      passed: 2,
      failed: 0,
      skipped: 0,
      parsed: true,
      exitCode: 0,
      changedLines: 2,
    });
    expect(result.stderr).toContain('plus finished');
    expect(await snapshotTreeWithTimes(workspace)).toEqual(before);
  });

  it('a hypothesis whose library code reaches into pytest cannot win; the JSON names the rule', async () => {
    const workspace = await writeProject('sbx-cli-forged-', pytestFiles);
    const spec = path.join(workspace, '..', `${path.basename(workspace)}.forged.json`);
    // Right, but it also imports pytest's report class into the library: the forged-result cheat's
    // first line. (The test run itself passes; the rule, not the run, stops it.)
    const forged = `from _pytest.reports import TestReport\n\n${pytestCalc.fixed}`;
    await writeFile(
      spec,
      JSON.stringify({
        hypotheses: [{ name: 'forged', edits: [{ path: 'calc.py', content: forged }] }],
      }),
    );
    const run = (extra: string[]) =>
      shadowbox([
        'shadow-run',
        spec,
        '--workspace',
        workspace,
        '--json',
        ...extra,
        '--',
        ...pytest,
      ]);
    const strict = await run([]);
    expect(strict.exitCode).toBe(1);
    const report = JSON.parse(strict.stdout) as {
      winner: string | null;
      hypotheses: { name: string; failed: number; disqualified: string | null }[];
    };
    expect(report.winner).toBeNull();
    expect(report.hypotheses[0]).toMatchObject({ name: 'forged', failed: 0 });
    expect(report.hypotheses[0]?.disqualified).toBe(
      "it reaches into the test framework, which this task does not allow (calc.py:1 reaches into pytest's internals (rule python-pytest-internals): 'from _pytest.reports import TestReport')",
    );
    const allowed = await run(['--allow-test-edits']);
    expect(allowed.exitCode).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ winner: 'forged' });
  });

  it('prints a ranked table and applies the winner with --apply', async () => {
    const workspace = await writeProject('sbx-cli-apply-', pytestFiles);
    const spec = path.join(workspace, '..', `${path.basename(workspace)}.json`);
    await writeFile(
      spec,
      JSON.stringify({
        hypotheses: [{ name: 'plus', edits: [{ path: 'calc.py', content: pytestCalc.fixed }] }],
      }),
    );
    const result = await shadowbox(['shadow-run', spec, '--apply', '--', ...pytest], workspace);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/plus\s+exit 0 .* 2 passed, 0 failed .*<- winner/);
    expect(result.stdout).toContain('winner: plus (applied)');
    expect(await readFile(path.join(workspace, 'calc.py'), 'utf8')).toBe(pytestCalc.fixed);
  });

  it('exits 1 when no hypothesis passes', async () => {
    const workspace = await writeProject('sbx-cli-red-', pytestFiles);
    const spec = `${workspace}.json`;
    await writeFile(spec, JSON.stringify({ hypotheses: [{ name: 'baseline' }] }));
    const result = await shadowbox(['shadow-run', spec, '--workspace', workspace, '--', ...pytest]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('no winner: no hypothesis passed');
    expect(result.stdout).toContain('--- output of baseline (tail) ---');
  });

  it.each([
    [['shadow-run', 'spec.json'], "no test command: give it after '--'"],
    [['shadow-run', '--', 'true'], "expected exactly one SPEC.json before '--', got 0"],
    [
      ['shadow-run', '/nonexistent/spec.json', '--', 'true'],
      "cannot read the spec '/nonexistent/spec.json'",
    ],
    [
      ['shadow-run', 'x.json', '--mode', 'fast', '--', 'true'],
      "--mode must be auto, overlay or inplace, got 'fast'",
    ],
    [
      ['shadow-run', 'x.json', '--parallel', 'two', '--', 'true'],
      "--parallel must be a positive integer, got 'two'",
    ],
  ])('refuses %j with exit 2 and a message', async (args, message) => {
    const result = await shadowbox(args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('refuses an invalid spec naming where it is wrong', async () => {
    const workspace = await writeProject('sbx-cli-bad-', pytestFiles);
    const spec = `${workspace}.json`;
    await writeFile(
      spec,
      JSON.stringify({ hypotheses: [{ name: 'x', edits: [{ path: 'calc.py' }] }] }),
    );
    const result = await shadowbox(['shadow-run', spec, '--workspace', workspace, '--', 'true']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/the spec '.*' is invalid at hypotheses\.0\.edits\.0/);
  });
});
