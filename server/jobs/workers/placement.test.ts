import { describe, expect, it } from 'vitest';
import { chooseWorker, type WorkerLoad } from './placement';

const worker = (id: string, running: number, capacity: number, tasks: number): WorkerLoad => ({
  id,
  running,
  capacity,
  tasks,
});

describe('chooseWorker', () => {
  it('takes the least busy worker by running steps over capacity', () => {
    expect(chooseWorker([worker('a', 2, 2, 1), worker('b', 1, 4, 9), worker('c', 1, 2, 0)])).toBe(
      'b',
    );
  });

  it('breaks a tie in busyness by the fewest tasks, then by id', () => {
    // 1/2 and 2/4 are equally busy: the task counts decide.
    expect(chooseWorker([worker('a', 1, 2, 3), worker('b', 2, 4, 1)])).toBe('b');
    expect(chooseWorker([worker('z', 0, 2, 0), worker('m', 0, 2, 0)])).toBe('m');
  });

  it('spreads a burst of new tasks while the running counts are stale', () => {
    const loads = [worker('a', 0, 2, 0), worker('b', 0, 2, 0)];
    const placed: string[] = [];
    for (let i = 0; i < 4; i++) {
      const id = chooseWorker(loads) ?? '';
      placed.push(id);
      const index = loads.findIndex((w) => w.id === id);
      const chosen = loads[index] as WorkerLoad;
      loads[index] = { ...chosen, tasks: chosen.tasks + 1 };
    }
    expect(placed).toEqual(['a', 'b', 'a', 'b']);
  });

  it('has no answer without a worker that can run anything', () => {
    expect(chooseWorker([])).toBeNull();
    expect(chooseWorker([worker('a', 0, 0, 0)])).toBeNull();
  });
});
