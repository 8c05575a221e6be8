'use client';

import { useQuery } from '@tanstack/react-query';
import { errorInfo } from '../errors/error-info';
import { useTRPC } from '../trpc/client';
import type { CellStatusView } from './compare-types';

export interface OpenCell {
  readonly test: string;
  readonly column: string;
  readonly runId: string | null;
  readonly status: CellStatusView;
}

/**
 * The output lines of one test in one column's run, fetched when the cell is opened (the
 * matrix does not carry them). Shown as text in a <pre>: output comes from the task's code.
 */
export function CellOutput({
  taskId,
  cell,
  onClose,
}: {
  readonly taskId: string;
  readonly cell: OpenCell;
  readonly onClose: () => void;
}) {
  const trpc = useTRPC();
  const output = useQuery(
    trpc.tasks.compareCell.queryOptions(
      { taskId, runId: cell.runId ?? '', test: cell.test },
      { enabled: cell.runId !== null },
    ),
  );
  return (
    <section className="cmp-output" aria-label={`Output of ${cell.test} in ${cell.column}`}>
      <header className="cmp-output-head">
        <h4>
          <code>{cell.test}</code> in {cell.column}: {cell.status}
        </h4>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      {cell.runId === null ? (
        <p className="muted">This column has no run.</p>
      ) : output.isPending ? (
        <p className="muted">Loading the output…</p>
      ) : output.isError ? (
        <p role="alert">{errorInfo(output.error).message}</p>
      ) : output.data.lines.length === 0 ? (
        <p className="muted">No output lines were captured for this test: {output.data.source}.</p>
      ) : (
        <>
          <p className="muted">From {output.data.source}.</p>
          <pre className="cmp-output-lines">
            {output.data.lines.join('\n')}
            {output.data.truncated ? '\n…' : ''}
          </pre>
        </>
      )}
    </section>
  );
}
