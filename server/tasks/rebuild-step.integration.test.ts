// Regression test (#23 item 2): a CMake project created without a buildCommand. Setup configures
// and builds, so without a rebuild before each run every hypothesis would test the binaries built
// from the baseline, and the right fix of the `.c` file would be judged "it fixed no failing test".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerRuntime } from '../runtime';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import { tokenIn } from '../test-support/actors';
import { settled, uploadTree, waitForView } from '../test-support/task-waits';
import type { Actor, TaskView } from './task-api';

let scratch: ScratchRuntime;
let runtime: ServerRuntime;
let agent: Actor;

const waitFor = (taskId: string, done: (task: TaskView) => boolean): Promise<TaskView> =>
  waitForView(runtime, taskId, agent, done);

const upload = (name: string, files: Record<string, string>): Promise<string> =>
  uploadTree(runtime, name, files);

beforeAll(async () => {
  scratch = await openScratchRuntime('sbx-rebuild-', { gatherMs: 300 });
  runtime = scratch.runtime;
  agent = await tokenIn(runtime.db, 'alice', ['agent']);
});

afterAll(async () => {
  await scratch.close();
});

const calc = (body: string): string =>
  `int add(int a, int b) { ${body} }\nint neg(int a) { return -a; }\n`;

const project = {
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
};

describe('a CMake project without a buildCommand', () => {
  it('rebuilds before each run: a hypothesis that fixes the .c file fixes the failing test', async () => {
    const { id } = await runtime.tasks.createTask(
      {
        source: { kind: 'archive', file: await upload('cmake', project), name: 'cmake.tar.gz' },
        testCommand: ['ctest', '--test-dir', 'build', '--output-on-failure'],
        maxIterations: 1,
      },
      agent,
    );
    const waiting = await waitFor(id, settled);
    expect(waiting.error ?? waiting.status).toBe('awaiting_hypotheses');
    expect(waiting.baseline).toMatchObject({ passed: 1, failed: 1 });
    // The detected build step is on the task, said to be detected.
    expect(waiting.setup?.build).toEqual({
      argv: ['cmake', '--build', 'build'],
      reason: expect.stringContaining('CMakeLists.txt') as string,
    });
    expect(waiting.setup?.reasons).toContain(waiting.setup?.build?.reason);

    await runtime.tasks.submitHypotheses(
      id,
      [
        {
          name: 'fix-add',
          edits: [{ path: 'calc.c', content: calc('return a + b;') }],
          delete: [],
        },
      ],
      agent,
    );
    const reviewed = await waitFor(id, (t) => t.status !== 'awaiting_hypotheses' && settled(t));
    const fix = reviewed.iterations[0]?.hypotheses[0];
    expect(fix?.tests?.fixed).toEqual([expect.stringContaining('adds')]);
    expect(fix?.disqualified ?? null).toBeNull();
    expect(reviewed.status).toBe('awaiting_review');
    expect(reviewed.reviewPartial).toBe(false);
  });

  it('a task given its own build command keeps it: nothing detected replaces it', async () => {
    const own = ['cmake', '--build', 'build', '--target', 'test_add', 'test_neg'];
    const { id } = await runtime.tasks.createTask(
      {
        source: { kind: 'archive', file: await upload('cmake-own', project), name: 'own.tar.gz' },
        testCommand: ['ctest', '--test-dir', 'build'],
        buildCommand: own,
        maxIterations: 1,
      },
      agent,
    );
    const waiting = await waitFor(id, settled);
    expect(waiting.error ?? waiting.status).toBe('awaiting_hypotheses');
    expect(waiting.buildCommand).toEqual(own);
    expect(waiting.setup?.build ?? null).toBeNull();
    expect(waiting.setup?.reasons.join('\n')).not.toContain('before the tests of every run');
  });

  it('refuses at creation a setup of its own that builds for tests that do not rebuild', async () => {
    const creating = runtime.tasks.createTask(
      {
        source: { kind: 'archive', file: await upload('cmake-gap', project), name: 'gap.tar.gz' },
        testCommand: ['ctest', '--test-dir', 'build', '--output-on-failure'],
        setupCommands: [
          ['cmake', '-S', '.', '-B', 'build'],
          ['cmake', '--build', 'build'],
        ],
      },
      agent,
    );
    await expect(creating).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message:
        'setup command 2 (cmake --build build) builds, but the test command ' +
        '(ctest --test-dir build --output-on-failure) does not rebuild, so every hypothesis would ' +
        'test the binaries built before its change: add buildCommand ["cmake","--build","build"]; ' +
        'it runs in the sandbox before the tests of every run',
    });
  });
});
