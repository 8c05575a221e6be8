import { describe, expect, it } from 'vitest';
import { checkpointAfter, interdiffFiles } from './interdiff-files';

const base = 'b'.repeat(40);
const c1 = '1'.repeat(40);
const c3 = '3'.repeat(40);
// Iteration 2 had no winner: its hypotheses and iteration 3's ran on iteration 1's checkpoint.
const iterations = [
  { index: 3, checkpointSha: c3 },
  { index: 1, checkpointSha: c1 },
  { index: 2, checkpointSha: null },
];

describe('checkpointAfter', () => {
  it('is the newest checkpoint up to the iteration, else the baseline', () => {
    expect(checkpointAfter('t', base, iterations, 0)).toBe(base);
    expect(checkpointAfter('t', base, iterations, 1)).toBe(c1);
    expect(checkpointAfter('t', base, iterations, 2)).toBe(c1);
    expect(checkpointAfter('t', base, iterations, 3)).toBe(c3);
    expect(checkpointAfter('t', base, [], 0)).toBe(base);
  });

  it('refuses an iteration the task has not started', () => {
    expect(() => checkpointAfter('t', base, iterations, 4)).toThrow(
      'no iteration 4 in task t (it has 3)',
    );
    expect(() => checkpointAfter('t', base, [], 1)).toThrow(
      'no iteration 1 in task t (it has none yet)',
    );
  });
});

describe('interdiffFiles', () => {
  it('lists the union of the touched files and the diffed ones, by path, with how each changed', () => {
    const files = interdiffFiles(
      new Set(['src/b.py', 'same.py']),
      new Set(['src/b.py', 'new.txt', 'same.py']),
      [
        { oldPath: 'src/b.py', newPath: 'src/b.py', status: 'modified' },
        { oldPath: null, newPath: 'new.txt', status: 'added' },
        { oldPath: 'gone.py', newPath: null, status: 'deleted' },
      ],
    );
    expect(files).toEqual([
      { path: 'gone.py', inA: false, inB: false, change: 'deleted' },
      { path: 'new.txt', inA: false, inB: true, change: 'added' },
      { path: 'same.py', inA: true, inB: true, change: 'same' },
      { path: 'src/b.py', inA: true, inB: true, change: 'modified' },
    ]);
  });
});
