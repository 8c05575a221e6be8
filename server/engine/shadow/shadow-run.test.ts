import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ShadowEvent } from './shadow-events';
import { shadowRun, type ShadowRunRequest } from './shadow-run';
import { cargoSummary, fakeExecutor } from './test-support/fake-executor';
import { writeProject } from './test-support/projects';

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
    const many = Array.from({ length: 6 }, (_, i) => ({ name: `h${i}`, edits: [], delete: [] }));
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

  it('rejects with an infrastructure fault only once every other run has finished', async () => {
    const workspace = await project();
    const executor = fakeExecutor({
      baseline: { throws: new Error('disk full') },
      plus: { output: cargoSummary(2, 0), delayMs: 60 },
      mul: { output: cargoSummary(0, 2), delayMs: 60 },
    });
    await expect(shadowRun(request(workspace, { parallel: 3 }), { executor })).rejects.toThrow(
      'disk full',
    );
    expect(executor.finished()).toBe(2);
  });

  it('counts tests from JUnit reports when the command wrote them', async () => {
    const workspace = await project();
    const junit =
      '<testsuite name="s" tests="3" failures="1" errors="0" skipped="1"><testcase name="a"/><testcase name="b"><failure/></testcase><testcase name="c"><skipped/></testcase></testsuite>';
    const report = await shadowRun(
      request(workspace, {
        command: ['python3', '-m', 'pytest', '--junitxml=out.xml'],
        hypotheses: [{ name: 'plus', edits: [], delete: [] }],
      }),
      {
        executor: fakeExecutor({
          plus: { output: 'no summary here', exitCode: 1, reports: [junit] },
        }),
      },
    );
    expect(report.hypotheses[0]).toMatchObject({ passed: 1, failed: 1, skipped: 1, parsed: true });
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
      { hypotheses: [{ name: 'gone', edits: [], delete: ['nope.rs'] }] },
      "hypothesis 'gone': cannot delete 'nope.rs': no such file",
    ],
  ])('refuses %j', async (overrides, message) => {
    const workspace = await project();
    const executor = fakeExecutor(script);
    await expect(shadowRun(request(workspace, overrides), { executor })).rejects.toThrow(message);
    expect(executor.requests).toHaveLength(0);
  });
});
