import { describe, expect, it } from 'vitest';
import type { ShadowEvent } from '../shadow/shadow-events';
import { shadowRun } from '../shadow/shadow-run';
import { fakeExecutor } from '../shadow/test-support/fake-executor';
import { writeProject } from '../../test-support/inline-projects';
import { createScriptedFixer } from './fixer';
import type { ShadowPort } from './loop-ports';
import { stepTask, type LoopDeps } from './task-step';
import { FakeWorkspace, MemoryLoopStore, fakeWorkspaces, loopDeps } from './test-support/fake-loop';

/** `pytest -v` output of the task's two tests (the fake task's command is pytest). */
const pytestOutput = (a: 'PASSED' | 'FAILED', b: 'PASSED' | 'FAILED'): string => {
  const failed = [a, b].filter((s) => s === 'FAILED').length;
  const summary = [
    failed > 0 ? `${failed} failed` : '',
    2 - failed > 0 ? `${2 - failed} passed` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `test_calc.py::test_a ${a}\ntest_calc.py::test_b ${b}\n===== ${summary} in 0.01s =====\n`;
};

describe('an iteration with identical hypotheses', () => {
  it('runs each tree once; every hypothesis is still ranked and reported on its own', async () => {
    const dir = await writeProject('sbx-loop-same-', { 'src/lib.rs': 'a - b\n' });
    // The real shadow runner reads the files hypotheses replace: the fake workspace gets a real path.
    const workspace = new FakeWorkspace();
    Object.defineProperty(workspace, 'path', { value: dir });
    const executor = fakeExecutor({
      baseline: { output: pytestOutput('PASSED', 'FAILED'), exitCode: 1 },
      'sample-1': { output: pytestOutput('PASSED', 'PASSED') },
      'sample-3': { output: pytestOutput('FAILED', 'FAILED'), exitCode: 1 },
    });
    const events: ShadowEvent[] = [];
    const shadows: ShadowPort = {
      mode: 'overlay',
      fallbackReason: null,
      run: (request, sink) =>
        shadowRun(request, {
          executor,
          events: {
            emit: (event) => {
              events.push(event);
              sink.emit(event);
            },
          },
        }),
    };
    const edit = (content: string) => ({ path: 'src/lib.rs', content });
    // K samples of a model, two of which agree.
    const fixer = createScriptedFixer([
      [
        { name: 'sample-1', edits: [edit('a + b\n')], delete: [] },
        { name: 'sample-2', edits: [edit('a + b\n')], delete: [] },
        { name: 'sample-3', edits: [edit('a * b\n')], delete: [] },
      ],
    ]);
    const store = new MemoryLoopStore({ hypothesesPerIteration: 3 });
    const deps: LoopDeps = loopDeps({
      store,
      fixer,
      shadows,
      workspaces: fakeWorkspaces(workspace),
    });
    const signal = new AbortController().signal;
    for (let i = 0; i < 20 && (await stepTask(deps, 'task1', signal)).kind === 'continue'; i++);

    expect(executor.requests.map((r) => r.hypothesis.name).sort()).toEqual([
      'baseline',
      'sample-1',
      'sample-3',
    ]);
    const iteration = store.events.find((e) => e.type === 'iteration.finished');
    if (iteration?.type !== 'iteration.finished') throw new Error('no iteration finished');
    expect(iteration.winner).toBe('sample-1');
    expect(iteration.ranked.map((h) => [h.name, h.rank, h.sameTreeAs ?? null])).toEqual([
      ['sample-1', 1, null],
      ['sample-2', 2, 'sample-1'],
      ['sample-3', 3, null],
    ]);
    const finished = store.events.flatMap((e) =>
      e.type === 'hypothesis.finished' ? [[e.result.name, e.result.sameTreeAs ?? null]] : [],
    );
    expect(finished).toContainEqual(['sample-2', 'sample-1']);
    expect(finished).toHaveLength(3);
    expect(events.filter((e) => e.type === 'hypothesis.started')).toHaveLength(4);
  });
});
