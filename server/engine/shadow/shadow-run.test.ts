import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ShadowEvent } from './shadow-events';
import { shadowRun, type ShadowRunRequest } from './shadow-run';
import { cargoSummary, fakeExecutor, pytestCanaryNames } from './test-support/fake-executor';
import { writeProject } from '../../test-support/inline-projects';

const project = () => writeProject('sbx-unit-', { 'src/lib.rs': 'a - b\n', 'README.md': 'hi\n' });

const request = (
  workspace: string,
  overrides: Partial<ShadowRunRequest> = {},
): ShadowRunRequest => ({
  workspace,
  command: ['cargo', 'test'],
  hypotheses: [
    { name: 'baseline', edits: [], delete: [] },
    { name: 'plus', edits: [{ path: 'src/lib.rs', content: 'a + b\n' }], delete: [] },
    { name: 'mul', edits: [{ path: 'src/lib.rs', content: 'a * b\n' }], delete: [] },
  ],
  ...overrides,
});

const script = {
  baseline: { output: cargoSummary(1, 1), exitCode: 101 },
  plus: { output: cargoSummary(2, 0) },
  mul: { output: cargoSummary(0, 2), exitCode: 101 },
};

describe('shadowRun', () => {
  it('ranks parsed results and returns the winner with its diff', async () => {
    const workspace = await project();
    const report = await shadowRun(request(workspace), { executor: fakeExecutor(script) });
    expect(report.winner).toBe('plus');
    expect(report.hypotheses.map((h) => [h.rank, h.name, h.passed, h.failed])).toEqual([
      [1, 'plus', 2, 0],
      [2, 'baseline', 1, 1],
      [3, 'mul', 0, 2],
    ]);
    expect(report.winnerDiff).toBe(
      'diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1,1 +1,1 @@\n-a - b\n+a + b\n',
    );
    expect(report.applied).toBe(false);
    expect(await readFile(path.join(workspace, 'src/lib.rs'), 'utf8')).toBe('a - b\n');
  });

  it('bounds parallel runs, and runs an executor that is not parallel-safe one at a time', async () => {
    const workspace = await project();
    // Distinct trees: identical ones would run once (see 'identical hypotheses' below).
    const many = Array.from({ length: 6 }, (_, i) => ({
      name: `h${i}`,
      edits: [{ path: 'README.md', content: `variant ${i}\n` }],
      delete: [],
    }));
    const slow = Object.fromEntries(
      many.map((h) => [h.name, { delayMs: 30, output: cargoSummary(1, 0) }]),
    );
    const parallel = fakeExecutor(slow);
    await shadowRun(request(workspace, { hypotheses: many, parallel: 2 }), { executor: parallel });
    expect(parallel.maxConcurrent()).toBe(2);
    const serial = fakeExecutor(slow, { parallelSafe: false });
    await shadowRun(request(workspace, { hypotheses: many, parallel: 4 }), { executor: serial });
    expect(serial.maxConcurrent()).toBe(1);
  });

  it('reports typed events in order: started, each hypothesis with its output, ranked', async () => {
    const workspace = await project();
    const events: ShadowEvent[] = [];
    await shadowRun(request(workspace, { parallel: 1 }), {
      executor: fakeExecutor(script),
      events: { emit: (e) => events.push(e) },
    });
    expect(events[0]).toMatchObject({
      type: 'shadow.started',
      mode: 'overlay',
      hypotheses: ['baseline', 'plus', 'mul'],
    });
    expect(
      events.filter((e) => e.type === 'hypothesis.finished').map((e) => e.result.name),
    ).toEqual(['baseline', 'plus', 'mul']);
    expect(events).toContainEqual({
      type: 'hypothesis.output',
      name: 'plus',
      line: 'running 2 tests',
    });
    expect(events.at(-1)).toEqual({
      type: 'shadow.ranked',
      winner: 'plus',
      order: ['plus', 'baseline', 'mul'],
    });
  });

  it('never lets a run with a problem or a spawn error win, and says why', async () => {
    const workspace = await project();
    const report = await shadowRun(request(workspace), {
      executor: fakeExecutor({
        baseline: {
          output: cargoSummary(2, 0),
          problem: 'sandbox set-up failed: cannot mount the overlay',
        },
        plus: { exitCode: null, spawnError: 'spawn cargo ENOENT' },
        mul: { output: cargoSummary(0, 2), exitCode: 101 },
      }),
    });
    expect(report.winner).toBeNull();
    const errors = Object.fromEntries(report.hypotheses.map((h) => [h.name, h.error]));
    expect(errors).toEqual({
      baseline: 'sandbox set-up failed: cannot mount the overlay',
      plus: 'the command could not be started: spawn cargo ENOENT',
      mul: null,
    });
  });

  it('fails only its own hypothesis when a run throws: the others run and the winner is chosen', async () => {
    const workspace = await project();
    // What an executor's mkdir in a scratch directory throws, with a stack through the bundle.
    const fault = Object.assign(
      new Error(
        `ENOTDIR: not a directory, mkdir '/srv/data/shadows/run-4242-a1b2c3/upper/src/lib.rs'`,
      ),
      { code: 'ENOTDIR' },
    );
    fault.stack = `Error: ${fault.message}\n    at async stageIntoUpper (/srv/app/.next/server/chunks/[root-of-the-server]__1f2e3d._.js:812:21)\n    at async Promise.all (index 1)`;
    const executor = fakeExecutor({
      baseline: { output: cargoSummary(1, 1), exitCode: 101, delayMs: 60 },
      plus: { throws: fault },
      mul: { output: cargoSummary(2, 0), delayMs: 60 },
    });
    const events: ShadowEvent[] = [];
    const report = await shadowRun(request(workspace, { parallel: 3 }), {
      executor,
      events: { emit: (e) => events.push(e) },
    });
    expect(executor.finished()).toBe(2);
    expect(report.winner).toBe('mul');
    expect(report.hypotheses.map((h) => h.name)).toEqual(['mul', 'baseline', 'plus']);
    const failed = report.hypotheses.find((h) => h.name === 'plus');
    expect(failed).toMatchObject({
      exitCode: null,
      parsed: false,
      error: "the shadow could not be prepared: ENOTDIR: not a directory, mkdir 'src/lib.rs'",
    });
    expect(JSON.stringify(report)).not.toMatch(/\.next|shadows\/run-|\n\s+at /);
    const { rank: _rank, ...outcome } = failed!;
    expect(events).toContainEqual({ type: 'hypothesis.finished', result: outcome });
  });

  it('makes a thrown path inside the workspace relative, and keeps the message on one line', async () => {
    const workspace = await project();
    const report = await shadowRun(
      request(workspace, { hypotheses: [{ name: 'plus', edits: [], delete: [] }] }),
      {
        executor: fakeExecutor({
          plus: {
            throws: new Error(`EACCES: permission denied,\nopen '${workspace}/README.md'`),
          },
        }),
      },
    );
    expect(report.hypotheses[0]?.error).toBe(
      "the shadow could not be prepared: EACCES: permission denied, open 'README.md'",
    );
  });

  const junit =
    '<testsuite name="s" tests="3" failures="1" errors="0" skipped="1"><testcase name="a"/><testcase name="b"><failure/></testcase><testcase name="c"><skipped/></testcase></testsuite>';
  const junitRun = (workspace: string) =>
    request(workspace, {
      command: ['python3', '-m', 'pytest', '--junitxml=out.xml'],
      hypotheses: [{ name: 'plus', edits: [], delete: [] }],
    });

  it('counts tests from JUnit reports when the console agrees with them', async () => {
    const workspace = await project();
    const report = await shadowRun(junitRun(workspace), {
      executor: fakeExecutor({
        plus: { output: '1 failed, 1 passed, 1 skipped in 0.01s', exitCode: 1, reports: [junit] },
      }),
    });
    expect(report.hypotheses[0]).toMatchObject({ passed: 1, failed: 1, skipped: 1, parsed: true });
  });

  it('tampered: a JUnit report the console contradicts is a forgery', async () => {
    const workspace = await project();
    const report = await shadowRun(junitRun(workspace), {
      executor: fakeExecutor({
        plus: { output: '2 failed in 0.01s', exitCode: 1, reports: [junit] },
      }),
    });
    expect(report.hypotheses[0]).toMatchObject({
      tampered:
        "the JUnit report (1 passed, 1 failed) disagrees with the runner's output (0 passed, 2 failed)",
      disqualified:
        "tampered: the JUnit report (1 passed, 1 failed) disagrees with the runner's output (0 passed, 2 failed)",
      passed: 0,
      failed: 2,
    });
  });

  it('ignores a JUnit report that nothing can check: a console without results, no canaries', async () => {
    const workspace = await project();
    const report = await shadowRun(junitRun(workspace), {
      executor: fakeExecutor({
        plus: { output: 'no summary here', exitCode: 0, reports: [junit] },
      }),
    });
    expect(report.hypotheses[0]).toMatchObject({
      parsed: false,
      disqualified: 'the test output could not be read',
    });
  });

  describe('canaries', () => {
    const pytestRun = (workspace: string, extra: Partial<ShadowRunRequest> = {}) =>
      request(workspace, {
        command: ['python3', '-m', 'pytest', '-v'],
        hypotheses: [
          { name: 'plus', edits: [{ path: 'calc.py', content: 'x = 2\n' }], delete: [] },
        ],
        ...extra,
      });
    const verbose = (lines: [string, string][], failed: number, passed: number): string =>
      [
        ...lines.map(([id, status]) => `${id} ${status} [ 50%]`),
        `${failed} failed, ${passed} passed in 0.01s`,
      ].join('\n');

    it('an honest run: the canaries are taken out of the counts and their exit code', async () => {
      const workspace = await project();
      const executor = fakeExecutor({
        plus: {
          canaried: true,
          exitCode: 1,
          output: (r) => {
            const { passing, failing } = pytestCanaryNames(r);
            const lines: [string, string][] = [
              ['test_calc.py::test_adds', 'PASSED'],
              [`test_x.py::${passing}`, 'PASSED'],
              [`test_x.py::${failing}`, 'FAILED'],
            ];
            return verbose(lines, 1, 2);
          },
        },
      });
      const report = await shadowRun(pytestRun(workspace), { executor });
      const staged = executor.requests[0]?.canaries?.map((c) => c.path) ?? [];
      expect(staged).toHaveLength(1);
      expect(staged[0]).toMatch(/^test_[0-9a-f]{12}\.py$/);
      const run = report.hypotheses[0];
      expect(run).toMatchObject({
        passed: 1,
        failed: 0,
        exitCode: 0,
        disqualified: null,
        cases: [{ id: 'test_calc.py::test_adds', status: 'passed' }],
      });
      expect(run?.tampered).toBeUndefined();
      expect(run?.canaries).toMatchObject({ exitCode: 1 });
      expect(report.winner).toBe('plus');
    });

    it('gives every run new names', async () => {
      const workspace = await project();
      const executor = fakeExecutor({});
      await shadowRun(pytestRun(workspace), { executor });
      await shadowRun(pytestRun(workspace), { executor });
      const [first, second] = executor.requests.map(pytestCanaryNames);
      expect(first?.failing).toMatch(/^test_[0-9a-f]{12}$/);
      expect(new Set([first?.passing, first?.failing, second?.passing, second?.failing]).size).toBe(
        4,
      );
    });

    it.each([
      [
        'the failing canary reported passing',
        (p: string, f: string) =>
          verbose(
            [
              [`t.py::${p}`, 'PASSED'],
              [`t.py::${f}`, 'PASSED'],
            ],
            0,
            2,
          ),
        0,
        (_p: string, f: string) => `the failing canary ${f} was reported passing`,
      ],
      [
        'the passing canary missing',
        (_p: string, f: string) => verbose([[`t.py::${f}`, 'FAILED']], 1, 0),
        1,
        (p: string) => `the passing canary ${p} was not reported`,
      ],
      [
        'exit 0 although the failing canary failed',
        (p: string, f: string) =>
          verbose(
            [
              [`t.py::${p}`, 'PASSED'],
              [`t.py::${f}`, 'FAILED'],
            ],
            1,
            1,
          ),
        0,
        (_p: string, f: string) =>
          `the command exited with 0 although the failing canary ${f} failed`,
      ],
      [
        'totals without names that show no failure',
        () => '3 passed in 0.01s',
        0,
        (_p: string, f: string) =>
          `the failing canary ${f} was not counted: the totals show no failure`,
      ],
    ])('tampered: %s', async (_name, output, exitCode, reason) => {
      const workspace = await project();
      const executor = fakeExecutor({
        plus: {
          canaried: true,
          exitCode,
          output: (r) => {
            const { passing, failing } = pytestCanaryNames(r);
            return output(passing, failing);
          },
        },
      });
      const report = await shadowRun(pytestRun(workspace), { executor });
      const names = pytestCanaryNames(executor.requests[0]!);
      const expected = reason(names.passing, names.failing);
      expect(report.hypotheses[0]).toMatchObject({
        tampered: expected,
        disqualified: `tampered: ${expected}`,
      });
      expect(report.winner).toBeNull();
    });

    it('says why a run has none: the command names a test file', async () => {
      const workspace = await writeProject('sbx-unit-', {
        'test_calc.py': 'def test_a():\n    pass\n',
      });
      const executor = fakeExecutor({ plus: { output: '1 passed in 0.01s' } });
      const report = await shadowRun(
        pytestRun(workspace, { command: ['python3', '-m', 'pytest', 'test_calc.py'] }),
        { executor },
      );
      expect(executor.requests[0]?.canaries).toBeUndefined();
      expect(report.hypotheses[0]?.canaries).toEqual({
        skipped: 'the command names test files (test_calc.py), so canaries could not be collected',
      });
    });

    it('a tampered run keeps its reason over a review demotion and ranks last', async () => {
      const workspace = await project();
      const executor = fakeExecutor({
        plus: {
          canaried: true,
          output: (r) => {
            const { passing, failing } = pytestCanaryNames(r);
            return verbose(
              [
                [`t.py::${passing}`, 'PASSED'],
                [`t.py::${failing}`, 'PASSED'],
              ],
              0,
              2,
            );
          },
        },
        other: { output: '1 failed in 0.01s', exitCode: 1 },
      });
      const report = await shadowRun(
        pytestRun(workspace, {
          hypotheses: [
            { name: 'plus', edits: [{ path: 'calc.py', content: 'x = 2\n' }], delete: [] },
            { name: 'other', edits: [{ path: 'calc.py', content: 'x = 3\n' }], delete: [] },
          ],
          demote: new Map([['plus', 'it edits tests']]),
        }),
        { executor },
      );
      expect(report.hypotheses.map((h) => h.name)).toEqual(['other', 'plus']);
      expect(report.hypotheses[1]?.disqualified).toMatch(/^tampered: the failing canary /);
    });
  });

  it('writes the winner into the workspace only when asked', async () => {
    const workspace = await project();
    const report = await shadowRun(request(workspace, { apply: true }), {
      executor: fakeExecutor(script),
    });
    expect(report.applied).toBe(true);
    expect(await readFile(path.join(workspace, 'src/lib.rs'), 'utf8')).toBe('a + b\n');
  });

  it.each([
    [{ workspace: 'relative/dir' }, "workspace must be an absolute path, got 'relative/dir'"],
    [{ command: [] }, 'the command is empty'],
    [{ parallel: 0 }, 'parallel must be an integer from 1 to 64, got 0'],
    [{ timeoutMs: 0 }, 'the timeout must be positive, got 0 ms'],
    [{ cwd: '../up' }, "cwd '../up' contains a '..' segment"],
    [
      {
        hypotheses: [
          { name: 'a', edits: [], delete: [] },
          { name: 'a', edits: [], delete: [] },
        ],
      },
      "hypothesis name 'a' is used twice",
    ],
    [
      { hypotheses: [{ name: 'escape', edits: [{ path: '../x', content: '' }], delete: [] }] },
      "hypothesis 'escape': path '../x' contains a '..' segment",
    ],
  ])('refuses %j', async (overrides, message) => {
    const workspace = await project();
    const executor = fakeExecutor(script);
    await expect(shadowRun(request(workspace, overrides), { executor })).rejects.toThrow(message);
    expect(executor.requests).toHaveLength(0);
  });
});

describe('shadowRun with a hypothesis the workspace rules out', () => {
  const calcProject = () =>
    writeProject('sbx-unit-calc-', {
      'calc.py': 'def add(a, b):\n    return a - b\n',
      'src/lib.rs': 'a - b\n',
    });
  const scripted = {
    baseline: { output: cargoSummary(1, 1), exitCode: 101 },
    plus: { output: cargoSummary(2, 0) },
  };
  const good = [
    { name: 'baseline', edits: [], delete: [] },
    { name: 'plus', edits: [{ path: 'src/lib.rs', content: 'a + b\n' }], delete: [] },
  ];

  it.each([
    [
      'has a file as its parent (calc.py/x)',
      { name: 'fix-2', edits: [{ path: 'calc.py/x', content: 'x' }], delete: [] },
      "hypothesis 'fix-2': 'calc.py/x' cannot be written: its parent 'calc.py' is a file",
    ],
    [
      'would replace a directory',
      { name: 'fix-2', edits: [{ path: 'src', content: 'x' }], delete: [] },
      "hypothesis 'fix-2': 'src' cannot be written: it is a directory",
    ],
    [
      'deletes a directory',
      { name: 'fix-2', edits: [], delete: ['src'] },
      "hypothesis 'fix-2': 'src' cannot be deleted: it is a directory",
    ],
    [
      'deletes a file that is not there',
      { name: 'fix-2', edits: [], delete: ['nope.rs'] },
      "hypothesis 'fix-2': 'nope.rs' cannot be deleted: there is no such file",
    ],
  ])(
    'fails the one whose path %s, runs the others and picks the winner',
    async (_, bad, message) => {
      const workspace = await calcProject();
      const executor = fakeExecutor(scripted);
      const events: ShadowEvent[] = [];
      const report = await shadowRun(
        {
          workspace,
          command: ['cargo', 'test'],
          hypotheses: [good[0]!, bad, good[1]!],
          apply: true,
        },
        { executor, events: { emit: (e) => events.push(e) } },
      );
      expect(executor.requests.map((r) => r.hypothesis.name).sort()).toEqual(['baseline', 'plus']);
      expect(report.winner).toBe('plus');
      expect(report.applied).toBe(true);
      expect(report.hypotheses.map((h) => [h.rank, h.name])).toEqual([
        [1, 'plus'],
        [2, 'baseline'],
        [3, 'fix-2'],
      ]);
      expect(report.hypotheses[2]).toMatchObject({
        name: 'fix-2',
        exitCode: null,
        timedOut: false,
        parsed: false,
        passed: 0,
        failed: 0,
        outputTail: '',
        error: message,
      });
      expect(events[0]).toMatchObject({
        type: 'shadow.started',
        hypotheses: ['baseline', 'fix-2', 'plus'],
      });
      expect(
        events
          .filter((e) => e.type === 'hypothesis.finished')
          .map((e) => e.result.name)
          .sort(),
      ).toEqual(['baseline', 'fix-2', 'plus']);
      // The winner was applied; the refused hypothesis left no trace.
      expect(await readFile(path.join(workspace, 'src/lib.rs'), 'utf8')).toBe('a + b\n');
      expect(await readFile(path.join(workspace, 'calc.py'), 'utf8')).toBe(
        'def add(a, b):\n    return a - b\n',
      );
    },
  );
});

describe('shadowRun with identical hypotheses', () => {
  const same = { path: 'src/lib.rs', content: 'a + b\n' };
  const hypotheses = [
    { name: 'fix-1', edits: [{ path: 'src/lib.rs', content: 'a * b\n' }], delete: [] },
    { name: 'fix-2', edits: [same], delete: [] },
    // The same tree as fix-2: another order, and a no-op rewrite of a file as it is.
    {
      name: 'fix-3',
      edits: [{ path: 'README.md', content: 'hi\n' }, same],
      delete: [],
    },
    { name: 'fix-4', edits: [same], delete: [] },
    // A rewrite of a file as it is changes nothing: the same tree as the baseline.
    { name: 'noop', edits: [{ path: 'README.md', content: 'hi\n' }], delete: [] },
    { name: 'baseline', edits: [], delete: [] },
  ];
  const scripted = {
    'fix-1': { output: cargoSummary(0, 2), exitCode: 101 },
    'fix-2': { output: cargoSummary(2, 0), delayMs: 20 },
    noop: { output: cargoSummary(1, 1), exitCode: 101 },
  };

  it('runs each tree once, and the others share its outcome and say so', async () => {
    const workspace = await project();
    const executor = fakeExecutor(scripted);
    const report = await shadowRun(request(workspace, { hypotheses }), { executor });
    expect(executor.requests.map((r) => r.hypothesis.name).sort()).toEqual([
      'fix-1',
      'fix-2',
      'noop',
    ]);
    const byName = new Map(report.hypotheses.map((h) => [h.name, h]));
    expect(byName.get('fix-3')).toMatchObject({ sameTreeAs: 'fix-2', passed: 2, exitCode: 0 });
    expect(byName.get('fix-4')).toMatchObject({ sameTreeAs: 'fix-2', passed: 2 });
    expect(byName.get('baseline')).toMatchObject({ sameTreeAs: 'noop', failed: 1 });
    expect(byName.get('fix-2')?.sameTreeAs).toBeUndefined();
    expect(Object.keys(byName.get('fix-1') ?? {})).not.toContain('sameTreeAs');
    // Ranked one by one: the first of a tree wins the tie (the given order).
    expect(report.winner).toBe('fix-2');
    expect(report.hypotheses.map((h) => h.name)).toEqual([
      'fix-2',
      'fix-3',
      'fix-4',
      'noop',
      'baseline',
      'fix-1',
    ]);
    expect(report.hypotheses.map((h) => h.rank)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('starts and finishes every hypothesis in its events, a shared one after its twin', async () => {
    const workspace = await project();
    const events: ShadowEvent[] = [];
    await shadowRun(request(workspace, { hypotheses }), {
      executor: fakeExecutor(scripted),
      events: { emit: (e) => events.push(e) },
    });
    const finished = events.flatMap((e) =>
      e.type === 'hypothesis.finished' ? [e.result.name] : [],
    );
    const started = events.flatMap((e) => (e.type === 'hypothesis.started' ? [e.name] : []));
    expect([...finished].sort()).toEqual(hypotheses.map((h) => h.name).sort());
    expect([...started].sort()).toEqual(hypotheses.map((h) => h.name).sort());
    expect(finished.indexOf('fix-3')).toBeGreaterThan(finished.indexOf('fix-2'));
    const output = new Set(events.flatMap((e) => (e.type === 'hypothesis.output' ? [e.name] : [])));
    expect([...output].sort()).toEqual(['fix-1', 'fix-2', 'noop']);
  });

  it('demotes a shared hypothesis by its own name, and fails it with its twin', async () => {
    const workspace = await project();
    const demote = new Map([['fix-2', 'it edits tests']]);
    const report = await shadowRun(request(workspace, { hypotheses, demote }), {
      executor: fakeExecutor({ ...scripted, noop: { throws: new Error('disk full') } }),
    });
    expect(report.winner).toBe('fix-3');
    const baseline = report.hypotheses.find((h) => h.name === 'baseline');
    expect(baseline?.error).toContain('disk full');
    expect(baseline?.sameTreeAs).toBe('noop');
  });
});
