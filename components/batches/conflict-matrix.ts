import type { BatchConflict, BatchMember } from './batch-types';
import { memberLabel } from './member-labels';

export interface MatrixMember {
  readonly taskId: string;
  readonly label: string;
}

/** A pair's cell: a member with itself, a pair that merges, or one that does not (and where). */
export type MatrixCell =
  | { readonly kind: 'self' }
  | { readonly kind: 'clean' }
  | { readonly kind: 'conflict'; readonly files: number; readonly conflict: BatchConflict };

export interface ConflictMatrix {
  readonly members: readonly MatrixMember[];
  /** `cells[row][column]`, symmetric: a pair conflicts whichever way round. */
  readonly cells: readonly (readonly MatrixCell[])[];
}

const pairKey = (a: string, b: string): string => (a < b ? `${a}\n${b}` : `${b}\n${a}`);

/**
 * The preflight's conflicting pairs as a members × members grid, in batch order. The rows are the
 * members still in the batch (the preflight ran on them), and any member a conflict names that
 * the batch no longer counts, so no conflict is left out.
 */
export function conflictMatrix(
  members: readonly BatchMember[],
  conflicts: readonly BatchConflict[],
): ConflictMatrix {
  const named = new Set(conflicts.flatMap((conflict) => [conflict.a, conflict.b]));
  const rows: MatrixMember[] = [...members]
    .filter((member) => member.dropped === null || named.has(member.taskId))
    .sort((x, y) => x.position - y.position)
    .map((member) => ({ taskId: member.taskId, label: memberLabel(member) }));
  const listed = new Set(rows.map((row) => row.taskId));
  for (const taskId of named) {
    if (!listed.has(taskId)) rows.push({ taskId, label: `task ${taskId}` });
  }
  const byPair = new Map(conflicts.map((conflict) => [pairKey(conflict.a, conflict.b), conflict]));
  const cells = rows.map((row) =>
    rows.map((column): MatrixCell => {
      if (row.taskId === column.taskId) return { kind: 'self' };
      const conflict = byPair.get(pairKey(row.taskId, column.taskId));
      return conflict === undefined
        ? { kind: 'clean' }
        : { kind: 'conflict', files: conflict.files.length, conflict };
    }),
  );
  return { members: rows, cells };
}

/** "#1 fix-foo and #2 fix-bar: 2 conflicting files": a cell's button, read aloud. */
export function conflictCellName(row: MatrixMember, column: MatrixMember, files: number): string {
  return `${row.label} and ${column.label}: ${files} conflicting file${files === 1 ? '' : 's'}`;
}
