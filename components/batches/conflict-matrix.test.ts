import { describe, expect, it } from 'vitest';
import type { BatchConflict, BatchMember } from './batch-types';
import { conflictCellName, conflictMatrix } from './conflict-matrix';

const member = (
  taskId: string,
  position: number,
  dropped: BatchMember['dropped'] = null,
): BatchMember => ({
  taskId,
  title: `fix-${taskId}`,
  position,
  headCommit: 'a'.repeat(40),
  diffSha256: 'd'.repeat(64),
  fixed: [],
  dropped,
});

const conflict = (a: string, b: string, paths: string[]): BatchConflict => ({
  a,
  b,
  files: paths.map((path) => ({ path, hunks: [`<<<<<<< ${path}`] })),
});

describe('conflictMatrix', () => {
  it('lays the members out in batch order with each pair counted both ways', () => {
    const ab = conflict('b', 'a', ['x.py', 'y.py']);
    const matrix = conflictMatrix(
      [member('c', 2), member('a', 0), member('b', 1)],
      [ab, conflict('c', 'a', ['z.py'])],
    );
    expect(matrix.members.map((m) => m.label)).toEqual(['#1 fix-a', '#2 fix-b', '#3 fix-c']);
    expect(
      matrix.cells.map((row) =>
        row.map((cell) => (cell.kind === 'conflict' ? cell.files : cell.kind)),
      ),
    ).toEqual([
      ['self', 2, 1],
      [2, 'self', 'clean'],
      [1, 'clean', 'self'],
    ]);
    const cell = matrix.cells[0]?.[1];
    expect(cell?.kind === 'conflict' ? cell.conflict : null).toBe(ab);
  });

  it('leaves out dropped members, unless a conflict still names them', () => {
    const dropped = { by: 'rita', at: '2026-12-06T10:00:00Z' };
    const members = [
      member('a', 0),
      member('b', 1, dropped),
      member('c', 2),
      member('d', 3, dropped),
    ];
    const matrix = conflictMatrix(members, [conflict('a', 'd', ['x.py'])]);
    expect(matrix.members.map((m) => m.taskId)).toEqual(['a', 'c', 'd']);
  });

  it('keeps a conflict whose member the batch does not list', () => {
    const matrix = conflictMatrix([member('a', 0)], [conflict('a', 'ghost', ['x.py'])]);
    expect(matrix.members.map((m) => m.label)).toEqual(['#1 fix-a', 'task ghost']);
    expect(matrix.cells[1]?.[0]).toMatchObject({ kind: 'conflict', files: 1 });
  });
});

describe('conflictCellName', () => {
  it('names the pair and counts its files', () => {
    const a = { taskId: 'a', label: '#1 fix-foo' };
    const b = { taskId: 'b', label: '#2 fix-bar' };
    expect(conflictCellName(a, b, 1)).toBe('#1 fix-foo and #2 fix-bar: 1 conflicting file');
    expect(conflictCellName(b, a, 3)).toBe('#2 fix-bar and #1 fix-foo: 3 conflicting files');
  });
});
