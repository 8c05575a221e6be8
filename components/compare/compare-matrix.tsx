'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { plural } from '../format';
import { useTRPC } from '../trpc/client';
import { CellOutput, type OpenCell } from './cell-output';
import { filterRows, rowFilters, type RowFilter } from './compare-filter';
import type { CompareRowView } from './compare-types';
import { MatrixGrid } from './matrix-grid';

/**
 * The compare matrix of a task: the baseline and each hypothesis side by side, one row per test
 * whose status differs. Pick an iteration (or all of them), filter to the broken or the fixed
 * tests, open a cell for that test's output lines in that run.
 *
 * `iterations`: how many the task has (the picker's range; the newest is shown first).
 * `version`: anything that changes when the task does (its last event id): the matrix is fetched
 * again then.
 */
export function CompareMatrix({
  taskId,
  iterations,
  version,
}: {
  readonly taskId: string;
  readonly iterations: number;
  readonly version?: number | string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pickerId = useId();
  // null: the whole task. Until one is picked, the newest iteration (or all, before any).
  const [picked, setPicked] = useState<number | null | undefined>(undefined);
  const iteration = picked === undefined ? (iterations > 0 ? iterations : null) : picked;
  const [filter, setFilter] = useState<RowFilter>('All');
  const [open, setOpen] = useState<(OpenCell & { readonly index: number }) | null>(null);

  const input = iteration === null ? { taskId } : { taskId, iteration };
  const matrix = useQuery(trpc.tasks.compare.queryOptions(input));
  useEffect(() => {
    if (version === undefined) return;
    void queryClient.invalidateQueries({ queryKey: trpc.tasks.compare.queryKey({ taskId }) });
  }, [version, taskId, queryClient, trpc]);

  const rows = useMemo(
    () => (matrix.data === undefined ? [] : filterRows(matrix.data.rows, filter)),
    [matrix.data, filter],
  );
  const known = Math.max(iterations, matrix.data?.iterations ?? 0);

  const columns = matrix.data?.columns;
  const onOpen = useCallback(
    (row: CompareRowView, index: number, status: OpenCell['status']) => {
      const column = columns?.[index];
      if (column === undefined) return;
      setOpen({ test: row.test, column: column.name, runId: column.runId, status, index });
    },
    [columns],
  );

  return (
    <section className="cmp" aria-label="Compare hypotheses">
      <div className="cmp-controls">
        <label htmlFor={pickerId}>Iteration</label>
        <select
          id={pickerId}
          value={iteration === null ? 'all' : String(iteration)}
          onChange={(event) => {
            setOpen(null);
            setPicked(event.target.value === 'all' ? null : Number(event.target.value));
          }}
        >
          {Array.from({ length: known }, (_, i) => (
            <option key={i + 1} value={String(i + 1)}>
              Iteration {i + 1}
            </option>
          ))}
          <option value="all">All</option>
        </select>
        <div role="group" aria-label="Show rows" className="cmp-filters">
          {rowFilters.map((name) => (
            <button
              key={name}
              type="button"
              aria-pressed={filter === name}
              className={filter === name ? 'cmp-filter cmp-filter-on' : 'cmp-filter'}
              onClick={() => setFilter(name)}
            >
              {name}
            </button>
          ))}
        </div>
        {matrix.data === undefined ? null : (
          <p className="cmp-count muted" aria-live="polite">
            {rows.length === matrix.data.rows.length
              ? plural(rows.length, 'test differs', 'tests differ')
              : `${rows.length} of ${plural(matrix.data.rows.length, 'differing test')}`}
          </p>
        )}
      </div>
      {matrix.isPending ? (
        <p className="muted">Loading the comparison…</p>
      ) : matrix.isError ? (
        <p role="alert">{errorInfo(matrix.error).message}</p>
      ) : matrix.data.columns.length <= 1 ? (
        <p className="muted">No hypothesis has run in this iteration yet.</p>
      ) : (
        <>
          <MatrixGrid
            columns={matrix.data.columns}
            rows={rows}
            showIteration={iteration === null}
            openCell={open === null ? null : { test: open.test, column: open.index }}
            onOpen={onOpen}
          />
          {rows.length === 0 ? (
            <p className="muted">
              {matrix.data.rows.length === 0
                ? 'No test has a different status in these columns (columns without per-test results cannot differ).'
                : 'No row matches this filter.'}
            </p>
          ) : null}
          {open === null ? null : (
            <CellOutput taskId={taskId} cell={open} onClose={() => setOpen(null)} />
          )}
        </>
      )}
    </section>
  );
}
