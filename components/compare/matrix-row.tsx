'use client';

import { memo } from 'react';
import { TestId } from '../task-page/test-ids';
import { ColumnHeader } from './column-header';
import { cellLabel, cellText } from './compare-filter';
import type { CellStatusView, CompareColumnView, CompareRowView } from './compare-types';

export type OpenHandler = (row: CompareRowView, column: number, status: CellStatusView) => void;

/**
 * One test's row: its id, then a button per column whose name says the status. Memoized: while
 * the grid scrolls only the rows coming into the window render (a row keeps its place, `top`).
 */
export const MatrixRow = memo(function MatrixRow({
  row,
  rowIndex,
  top,
  height,
  template,
  columnNames,
  openColumn,
  onOpen,
}: {
  readonly row: CompareRowView;
  /** 1-based in the whole grid, the header row being 1. */
  readonly rowIndex: number;
  readonly top: number;
  readonly height: number;
  readonly template: string;
  readonly columnNames: readonly string[];
  /** The column of this row whose output is open, if any. */
  readonly openColumn: number | null;
  readonly onOpen: OpenHandler;
}) {
  return (
    <div
      role="row"
      aria-rowindex={rowIndex}
      className="cmp-row"
      style={{ gridTemplateColumns: template, height, transform: `translateY(${top}px)` }}
    >
      <div role="rowheader" className="cmp-test">
        <TestId id={row.test} />
      </div>
      {row.cells.map((status, index) => (
        <div role="gridcell" key={index} className="cmp-cell-wrap">
          <button
            type="button"
            className={`cmp-cell cmp-${status.replace(' ', '-')}${openColumn === index ? ' cmp-open' : ''}`}
            aria-label={cellLabel(row.test, columnNames[index] ?? '', status)}
            aria-pressed={openColumn === index}
            onClick={() => onOpen(row, index, status)}
          >
            {cellText[status]}
          </button>
        </div>
      ))}
    </div>
  );
});

/** The header row: "Test", then each column's head. Memoized: it does not change as rows scroll. */
export const MatrixHeaderRow = memo(function MatrixHeaderRow({
  columns,
  template,
  showIteration,
}: {
  readonly columns: readonly CompareColumnView[];
  readonly template: string;
  readonly showIteration: boolean;
}) {
  return (
    <div
      role="row"
      aria-rowindex={1}
      className="cmp-row cmp-head-row"
      style={{ gridTemplateColumns: template }}
    >
      <div role="columnheader" className="cmp-head cmp-test-head">
        Test
      </div>
      {columns.map((column) => (
        <ColumnHeader
          key={`${column.iteration ?? 0}:${column.name}`}
          column={column}
          showIteration={showIteration}
        />
      ))}
    </div>
  );
});
